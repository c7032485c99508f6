"""Finding a run's processes through /proc, for machines where the judge cannot create a control group.

Used by the `proc` containment (polled.py): with a cgroup, the kernel already knows every process of a run.
"""

from __future__ import annotations

import functools
import os
import signal
import time
from dataclasses import dataclass
from pathlib import Path

RUN_TOKEN_VARIABLE = "JUDGE_RUN_TOKEN"
KILL_ROUNDS = 20
_CLOCK_TICKS = os.sysconf("SC_CLK_TCK")
_PAGE_SIZE = os.sysconf("SC_PAGE_SIZE")
_GONE = (FileNotFoundError, ProcessLookupError)
"""What reading /proc/<pid>/... raises for a process that has exited meanwhile. Any other error is the judge's
failure (out of file descriptors, say): swallowed, it would drop a live process from the CPU time and memory."""


def own_rss() -> int:
    with open("/proc/self/statm", "rb") as handle:
        return int(handle.read().split()[1]) * _PAGE_SIZE


def tasks_now() -> int:
    """Processes and threads running on this machine (an upper bound of the user's, which RLIMIT_NPROC counts)."""
    with open("/proc/loadavg", "rb") as handle:
        return int(handle.read().split()[3].split(b"/")[1])


@functools.cache
def _pid_max() -> int:
    try:
        return int(Path("/proc/sys/kernel/pid_max").read_text())
    except (OSError, ValueError):
        return 1 << 22


def forks_so_far() -> int:
    """Processes and threads created on this machine since boot (`processes` in /proc/stat)."""
    with open("/proc/stat", "rb") as handle:
        for line in handle:
            if line.startswith(b"processes "):
                return int(line.split()[1])
    return 0


@dataclass(frozen=True)
class Spawned:
    """The processes a run started, found without a cgroup and without reading all of /proc at every check.

    Pids are handed out in increasing order, wrapping at pid_max, so everything started since the run's first
    process has a pid between that one and the last pid handed out, unless so many processes were created
    meanwhile that the counter may have come round again (then every process is a candidate). Among the
    candidates, the run's processes are the first one's descendants plus any process (a setsid double-forked
    daemon) still carrying the run's token in its environment.
    """

    first_pid: int
    forks_before: int
    token: str

    def candidates(self) -> list[int]:
        pids = [int(name) for name in os.listdir("/proc") if name.isdigit()]
        with open("/proc/loadavg", "rb") as handle:
            fields = handle.read().split()
        last_pid, threads = int(fields[4]), int(fields[3].split(b"/")[1])
        if forks_so_far() - self.forks_before + threads >= _pid_max() - 300:
            return pids
        if last_pid >= self.first_pid:
            return [pid for pid in pids if self.first_pid <= pid <= last_pid]
        return [pid for pid in pids if pid >= self.first_pid or pid <= last_pid]

    def members(self) -> dict[int, list[bytes]]:
        """The run's live processes, each with the fields of /proc/<pid>/stat after the command name."""
        stats: dict[int, list[bytes]] = {}
        for pid in self.candidates():
            try:
                with open(f"/proc/{pid}/stat", "rb") as handle:
                    text = handle.read()
            except _GONE:
                continue  # it exited since the listing; any other failure (no descriptor left) is the judge's
            stats[pid] = text[text.rindex(b")") + 2 :].split()
        members = {self.first_pid} & stats.keys()
        growing = True
        while growing:  # descendants: a parent's pid is not always below its child's once pids wrap
            found = {pid for pid, fields in stats.items() if pid not in members and int(fields[1]) in members}
            members |= found
            growing = bool(found)
        members |= {pid for pid in stats.keys() - members if self._has_token(pid)}
        return {pid: stats[pid] for pid in members}

    def usage(self) -> tuple[float, int]:
        """CPU seconds (with reaped children's) and RSS bytes summed over the run's live processes."""
        ticks, page = 0, 0
        for fields in self.members().values():
            ticks += sum(int(value) for value in fields[11:15])  # utime, stime, cutime, cstime
            page += int(fields[21])  # rss in pages
        return ticks / _CLOCK_TICKS, page * _PAGE_SIZE

    def kill(self) -> None:
        """SIGKILL the run's processes, again while any is left alive (one may have forked meanwhile)."""
        for _ in range(KILL_ROUNDS):
            alive = [pid for pid, fields in self.members().items() if fields[0] != b"Z"]
            if not alive:
                return
            for pid in alive:
                try:
                    os.kill(pid, signal.SIGKILL)
                except (ProcessLookupError, PermissionError):
                    pass
            time.sleep(0.001)

    def _has_token(self, pid: int) -> bool:
        try:
            with open(f"/proc/{pid}/environ", "rb") as handle:
                return f"{RUN_TOKEN_VARIABLE}={self.token}".encode() in handle.read()
        except (*_GONE, PermissionError):  # gone, or another user's: not the run's
            return False
