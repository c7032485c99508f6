"""Finding a run's processes through /proc, for machines where the judge cannot create a control group.

Used by the `proc` containment (polled.py): with a cgroup, the kernel already knows every process of a run.
"""

from __future__ import annotations

import functools
import os
import signal
import time
from collections.abc import Callable, Mapping
from pathlib import Path

from msgspec import Struct, field

from judge.errors import JudgeFailure
from judge.runner.containment.protocol import RUN_TOKEN_VARIABLE

STOP_SECONDS = 2.0
"""How long stopping a tree may take before the SIGKILLs go out anyway (a member in uninterruptible sleep stops
only when its system call ends)."""
KILL_SECONDS = 10.0
"""How long a tree may take to die after its SIGKILLs; past it the run is the judge's failure, never let go."""
START_TIME = 19
"""Where a process's start time is among the fields of /proc/<pid>/stat after its command name (field 22)."""
NOT_RUNNING = frozenset("TtZX")
"""/proc states of a process that cannot fork: stopped, stopped by a tracer, a zombie, dead."""
DEAD = frozenset("ZX")
_CLOCK_TICKS = os.sysconf("SC_CLK_TCK")
_PAGE_SIZE = os.sysconf("SC_PAGE_SIZE")
_GONE = (FileNotFoundError, ProcessLookupError)
"""What reading /proc/<pid>/... raises for a process that has exited meanwhile. Any other error is the judge's
failure (out of file descriptors, say): swallowed, it would drop a live process from the CPU time and memory."""


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


class Spawned(Struct, frozen=True):
    """The processes a run started, found without a cgroup and without reading all of /proc at every check.

    Pids are handed out in increasing order, wrapping at pid_max, so everything started since the run's first
    process has a pid between that one and the last pid handed out, unless so many processes were created
    meanwhile that the counter may have come round again (then every process is a candidate). Among the
    candidates, the run's processes are the first one's descendants plus any process (a setsid double-forked
    daemon) still carrying the run's token in its environment, plus any process found a member before that is
    still the same process (its start time): a killed process loses its environment early in its exit, and a
    box's daemon, killed as its box's PID 1 ended, was found by a search of the host still exiting after `judge
    run` returned. The kill waits for it too.
    """

    first_pid: int
    forks_before: int
    token: str
    _seen: dict[int, bytes] = field(default_factory=dict)  # pid -> start time

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
        members |= {pid for pid, started in self._seen.items() if pid in stats and stats[pid][START_TIME] == started}
        growing = True
        while growing:  # descendants: a parent's pid is not always below its child's once pids wrap
            found = {pid for pid, fields in stats.items() if pid not in members and int(fields[1]) in members}
            members |= found
            growing = bool(found)
        members |= {pid for pid in stats.keys() - members if self._has_token(pid)}
        self._seen.update({pid: stats[pid][START_TIME] for pid in members})
        return {pid: stats[pid] for pid in members}

    def usage(self) -> tuple[float, int]:
        """CPU seconds (with reaped children's) and RSS bytes summed over the run's live processes."""
        return usage(self.members())

    def states(self) -> dict[int, str]:
        """The run's live processes and their one-letter /proc states."""
        return {pid: fields[0].decode() for pid, fields in self.members().items()}

    def kill(self, frozen: Callable[[dict[int, list[bytes]]], object] = lambda members: None) -> None:
        """Stop, then SIGKILL, every process of the run (`stop_then_kill`); `frozen` gets the stopped tree's stat
        fields before the SIGKILLs. The run's process group (its first process leads it) is stopped in one call as
        soon as the tree is seen alive: the kernel stops all of a bomb that stayed in it at once, where stopping
        pid by pid races its forks."""
        stop_then_kill(
            self.states,
            _signal(signal.SIGSTOP),
            _signal(signal.SIGKILL),
            stop_all=lambda: _signal(signal.SIGSTOP)(-self.first_pid),
            frozen=lambda: frozen(self.members()),
        )

    def _has_token(self, pid: int) -> bool:
        try:
            with open(f"/proc/{pid}/environ", "rb") as handle:
                return f"{RUN_TOKEN_VARIABLE}={self.token}".encode() in handle.read()
        except (*_GONE, PermissionError):  # gone, or another user's: not the run's
            return False


def usage(members: Mapping[int, list[bytes]]) -> tuple[float, int]:
    """CPU seconds (with reaped children's) and RSS bytes summed over processes given by their stat fields.

    /proc/<pid>/stat counts CPU time in clock ticks (10 ms), rounded down per process: a tree of many short-lived
    or young processes would lose up to a tick each (8 busy children: 6 % of a 1 s limit, measured), so a process's
    own time is also read in nanoseconds from schedstat (its main thread's only: the larger figure wins)."""
    seconds, pages = 0.0, 0
    for pid, fields in members.items():
        own = (int(fields[11]) + int(fields[12])) / _CLOCK_TICKS  # utime, stime: all its threads
        reaped = (int(fields[13]) + int(fields[14])) / _CLOCK_TICKS  # cutime, cstime
        seconds += max(own, _main_thread_seconds(pid)) + reaped
        pages += int(fields[21])  # rss in pages
    return seconds, pages * _PAGE_SIZE


def _main_thread_seconds(pid: int) -> float:
    """The CPU time of a process's main thread in nanoseconds' precision; 0 once it is gone (or without
    schedstat, a kernel option)."""
    try:
        with open(f"/proc/{pid}/schedstat", "rb") as handle:
            return int(handle.read().split()[0]) / 1e9
    except _GONE:
        return 0.0


def tasks(members: Mapping[int, list[bytes]]) -> int:
    """Processes and threads among processes given by their stat fields: what a pids limit counts (a zombie too,
    until it is reaped)."""
    return sum(max(1, int(fields[17])) for fields in members.values())  # num_threads


def stop_then_kill(
    look: Callable[[], Mapping[int, str]],
    stop: Callable[[int], None],
    kill: Callable[[int], None],
    stop_all: Callable[[], None] = lambda: None,
    frozen: Callable[[], object] = lambda: None,
) -> None:
    """Kill a tree that may be forking as fast as it can, and wait until none of it is left alive.

    `look` lists the tree's live processes with their one-letter /proc states; `stop_all` may stop many at once,
    once the tree is found alive. A SIGKILL round cannot outrun a
    fork bomb: a parent killed leaves the children it forked meanwhile, now orphans whose ties to the tree are gone.
    A stopped process cannot fork, and keeps its children: so first every member is stopped, again and again, until
    a whole look finds no member running and none it had not seen (a child forked just before its parent stopped
    does not inherit the stop); then `frozen` is called (the tree holds still: its CPU time can be read whole), and
    the tree is SIGKILLed at once, and again while any is alive. Bounded by time (STOP_SECONDS, then KILL_SECONDS:
    a JudgeFailure), never by a count of rounds that a fast bomb outruns."""
    seen: set[int] = set()
    deadline = time.monotonic() + STOP_SECONDS
    while time.monotonic() < deadline:
        members = look()
        if not members:
            return  # the common end of a run: nothing left
        if not seen:
            stop_all()
        running = [pid for pid, state in members.items() if state not in NOT_RUNNING]
        if not running and members.keys() <= seen:
            break
        seen |= members.keys()
        for pid in running:
            stop(pid)
        time.sleep(0)  # let the stops land
    frozen()
    deadline = time.monotonic() + KILL_SECONDS
    while alive := [pid for pid, state in look().items() if state not in DEAD]:
        if time.monotonic() > deadline:
            raise JudgeFailure(f"{len(alive)} processes of a run were still alive {KILL_SECONDS:.0f} s after SIGKILL")
        for pid in alive:
            kill(pid)
        time.sleep(0.001)


def _signal(number: int) -> Callable[[int], None]:
    """Send `number` to a pid, if it still exists and is the judge's to signal."""

    def send(pid: int) -> None:
        try:
            os.kill(pid, number)
        except (ProcessLookupError, PermissionError):
            pass

    return send
