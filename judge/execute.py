"""Running one command under limits. Facts only: what happened, never a verdict.

`run` starts the command (wrapped by the sandbox) in a fresh process group and control group, with stdin from
a file and stdout/stderr to capped files, and watches it until it exits or trips a limit:

- CPU time of the whole tree (cgroup cpuacct when available, else the tree polled from /proc, plus what the
  kernel accounts for reaped children) over the limit ends the run; RLIMIT_CPU is a per-process backstop.
- Wall time over the wall limit ends sleepers and blocked readers.
- Memory: the cgroup's hard limit and peak when available; otherwise RLIMIT_AS per process and the tree's RSS
  polled from /proc.
- Processes: the cgroup's pids limit; otherwise RLIMIT_NPROC, which counts every task of the user, so it is set
  to the tasks on the machine now plus the run's allowance (a plain allowance would fail a thread start in any
  submission of a user who already runs that many threads: a desktop, a JVM).
- Output: RLIMIT_FSIZE stops writes just past the output limit.
- Afterwards every process the command started is killed: the control group, the process group, and any
  process still carrying this run's token in its environment.
"""

from __future__ import annotations

import enum
import functools
import os
import resource
import select
import signal
import subprocess
import time
import uuid
from dataclasses import dataclass
from pathlib import Path

from judge import cgroups
from judge.results import Limits

MIB = 1024 * 1024
STDERR_TAIL_BYTES = 2048
RUN_TOKEN_VARIABLE = "JUDGE_RUN_TOKEN"
KILL_ROUNDS = 20
_CLOCK_TICKS = os.sysconf("SC_CLK_TCK")
_PAGE_SIZE = os.sysconf("SC_PAGE_SIZE")


class Tripped(enum.Enum):
    """Which limit ended a run early."""

    CPU = "cpu"
    WALL = "wall"
    MEMORY = "memory"
    OUTPUT = "output"
    PROCESSES = "processes"


@dataclass(frozen=True)
class RunStats:
    """What happened to one run of a command."""

    cpu_seconds: float
    wall_seconds: float
    peak_bytes: int
    exit_code: int | None
    signal: int | None
    tripped: Tripped | None
    stdout_bytes: int
    stderr_bytes: int
    stderr_tail: str

    @property
    def peak_mib(self) -> float:
        return self.peak_bytes / MIB


@dataclass(frozen=True)
class RunSpec:
    """A command ready to start: argv (already wrapped by the sandbox), where it runs, and its files."""

    argv: list[str]
    cwd: Path
    stdin_path: Path
    stdout_path: Path
    stderr_path: Path
    env: dict[str, str]
    limit_address_space: bool = True
    signals_as_exit_codes: bool = False


def memory_enforcement() -> str:
    """How memory is limited and measured on this machine (reported by `judge doctor` and every report)."""
    mechanism = cgroups.probe()
    if mechanism == "none":
        return "RLIMIT_AS per process + psutil polling of the process tree"
    return f"{mechanism} (memory limit and peak of the whole process tree)"


def run(spec: RunSpec, limits: Limits) -> RunStats:
    """Start `spec.argv` under `limits`, wait for it or kill it, clean up every process, return the facts."""
    memory_bytes = limits.memory_mib * MIB
    output_bytes = limits.output_mib * MIB
    group = cgroups.create(memory_bytes, limits.max_processes)
    token = uuid.uuid4().hex
    judge_rss = _own_rss() if group is None else 0
    forks_before = _forks_so_far() if group is None else 0
    nproc = None if group is not None else _tasks_now() + limits.max_processes
    preexec = _child_setup(limits, group, output_bytes, spec.limit_address_space and group is None, nproc)
    with open(spec.stdin_path, "rb") as stdin, open(spec.stdout_path, "wb") as stdout, \
            open(spec.stderr_path, "wb") as stderr:
        started = time.monotonic()
        try:
            process = subprocess.Popen(
                spec.argv, stdin=stdin, stdout=stdout, stderr=stderr, cwd=spec.cwd,
                env={**spec.env, RUN_TOKEN_VARIABLE: token}, preexec_fn=preexec, start_new_session=True,
            )
        except BaseException:
            if group is not None:
                group.remove()
            raise
    if group is not None:
        group.reset_peak()
    spawned = _Spawned(process.pid, forks_before, token)
    watch = _Watch(process.pid, group, limits, started, spawned)
    try:
        status, usage = watch.wait()
    finally:
        _kill_everything(process.pid, group, spawned)
    wall = time.monotonic() - started
    rusage_cpu = usage.ru_utime + usage.ru_stime if usage else 0.0
    cpu = max(rusage_cpu, group.cpu_seconds() if group else watch.tree_cpu)
    peak = group.peak_bytes() if group else _fallback_peak(watch.tree_peak, usage, judge_rss)
    tripped = watch.tripped
    if group is not None:
        if tripped is None and group.hit_memory_limit():
            tripped = Tripped.MEMORY
        if tripped is None and group.hit_process_limit():
            tripped = Tripped.PROCESSES
        group.remove()
    stdout_size = spec.stdout_path.stat().st_size
    stderr_size = spec.stderr_path.stat().st_size
    if tripped is None and max(stdout_size, stderr_size) > output_bytes:
        tripped = Tripped.OUTPUT
    exit_code, killed_by = _decode_status(status, spec.signals_as_exit_codes)
    return RunStats(
        cpu_seconds=cpu,
        wall_seconds=wall,
        peak_bytes=peak,
        exit_code=exit_code,
        signal=killed_by,
        tripped=tripped,
        stdout_bytes=stdout_size,
        stderr_bytes=stderr_size,
        stderr_tail=_tail(spec.stderr_path),
    )


def _decode_status(status: int, signals_as_exit_codes: bool) -> tuple[int | None, int | None]:
    """(exit code, None) or (None, signal); a wrapper's exit code 128 + N means the program died of signal N."""
    if os.WIFSIGNALED(status):
        return None, os.WTERMSIG(status)
    code = os.WEXITSTATUS(status)
    if signals_as_exit_codes and 128 < code < 128 + signal.NSIG:
        return None, code - 128
    return code, None


def _fallback_peak(polled: int, usage: resource.struct_rusage | None, judge_rss: int) -> int:
    """Peak memory without a cgroup. ru_maxrss also counts the child's copy of the judge before exec, so it
    is the submission's own peak only when it is above the judge's RSS at fork; else trust the polled peak."""
    maxrss = usage.ru_maxrss * 1024 if usage else 0
    return max(polled, maxrss) if maxrss > judge_rss * 1.05 else polled


def _lower(which: int, soft: int, hard: int) -> None:
    """Set a limit, never above the hard limit the judge itself has (raising it would fail without root)."""
    current_hard = resource.getrlimit(which)[1]
    if current_hard != resource.RLIM_INFINITY:
        hard = current_hard if hard == resource.RLIM_INFINITY else min(hard, current_hard)
        soft = min(soft, hard)
    resource.setrlimit(which, (soft, hard))


def _own_rss() -> int:
    with open("/proc/self/statm", "rb") as handle:
        return int(handle.read().split()[1]) * _PAGE_SIZE


def _tasks_now() -> int:
    """Processes and threads running on this machine (an upper bound of the user's, which RLIMIT_NPROC counts)."""
    with open("/proc/loadavg", "rb") as handle:
        return int(handle.read().split()[3].split(b"/")[1])


def _child_setup(limits: Limits, group: cgroups.RunGroup | None, output_bytes: int, limit_as: bool,
                 nproc: int | None):
    """The function run in the child between fork and exec: join the cgroup, set rlimits. `nproc` is the
    RLIMIT_NPROC to set, or None where the cgroup's pids limit counts the run's processes exactly."""
    cpu_backstop = int(limits.time_seconds) + 2
    memory_bytes = limits.memory_mib * MIB

    def setup() -> None:
        if group is not None:
            group.join()
        _lower(resource.RLIMIT_CPU, cpu_backstop, cpu_backstop + 1)
        _lower(resource.RLIMIT_FSIZE, output_bytes + 1, output_bytes + 1)
        _lower(resource.RLIMIT_CORE, 0, 0)
        if nproc is not None:
            _lower(resource.RLIMIT_NPROC, nproc, nproc)
        # BOJ lets the stack grow as far as the memory limit, so deep recursion in C++ is not an RE.
        _lower(resource.RLIMIT_STACK, memory_bytes, resource.RLIM_INFINITY)
        if limit_as:
            _lower(resource.RLIMIT_AS, memory_bytes, memory_bytes)

    return setup


class _Watch:
    """Waits for the child's exit while checking CPU, wall and (without a cgroup) memory at short intervals."""

    def __init__(self, pid: int, group: cgroups.RunGroup | None, limits: Limits, started: float,
                 spawned: _Spawned) -> None:
        self.pid = pid
        self.group = group
        self.spawned = spawned
        self.limits = limits
        self.started = started
        self.tripped: Tripped | None = None
        self.tree_cpu = 0.0
        self.tree_peak = 0

    def wait(self) -> tuple[int, resource.struct_rusage | None]:
        pidfd = os.pidfd_open(self.pid)
        poller = select.poll()
        poller.register(pidfd, select.POLLIN)
        interval = 0.005
        try:
            while not poller.poll(interval * 1000):
                self._check()
                if self.tripped is not None:
                    _kill_group(self.pid)
                    if self.group is not None:
                        self.group.kill_all()
                    break
                interval = min(interval * 2, 0.05)
            _, status, usage = os.wait4(self.pid, 0)
            return status, usage
        finally:
            os.close(pidfd)

    def _check(self) -> None:
        elapsed = time.monotonic() - self.started
        if self.group is not None:
            cpu = self.group.cpu_seconds()
        else:
            cpu, rss = self.spawned.usage()
            self.tree_cpu = max(self.tree_cpu, cpu)
            self.tree_peak = max(self.tree_peak, rss)
            if rss > self.limits.memory_mib * MIB:
                self.tripped = Tripped.MEMORY
                return
        if cpu > self.limits.time_seconds:
            self.tripped = Tripped.CPU
        elif elapsed > self.limits.wall_seconds:
            self.tripped = Tripped.WALL


def _kill_group(pid: int) -> None:
    try:
        os.killpg(pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


@functools.lru_cache(maxsize=None)
def _pid_max() -> int:
    try:
        return int(Path("/proc/sys/kernel/pid_max").read_text())
    except (OSError, ValueError):
        return 1 << 22


def _forks_so_far() -> int:
    """Processes and threads created on this machine since boot (`processes` in /proc/stat)."""
    with open("/proc/stat", "rb") as handle:
        for line in handle:
            if line.startswith(b"processes "):
                return int(line.split()[1])
    return 0


@dataclass(frozen=True)
class _Spawned:
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
        if _forks_so_far() - self.forks_before + threads >= _pid_max() - 300:
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
            except OSError:
                continue
            stats[pid] = text[text.rindex(b")") + 2:].split()
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
        except OSError:
            return False


def _kill_everything(pid: int, group: cgroups.RunGroup | None, spawned: _Spawned) -> None:
    """Leave nothing behind: the control group, the process group, then (without a cgroup) the run's other
    processes: descendants that left the process group and escapees carrying the run's token."""
    if group is not None:
        group.kill_all()
    _kill_group(pid)
    if group is None:
        spawned.kill()
    try:
        os.waitpid(pid, os.WNOHANG)
    except ChildProcessError:
        pass


def _tail(path: Path) -> str:
    """The last lines of a (capped) stderr file, decoded for display."""
    with open(path, "rb") as handle:
        handle.seek(max(0, path.stat().st_size - STDERR_TAIL_BYTES))
        data = handle.read()
    return data.decode("utf-8", errors="replace").strip()
