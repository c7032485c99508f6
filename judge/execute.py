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
import os
import resource
import select
import shutil
import signal
import subprocess
import time
import uuid
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from judge import cgroups, proctree
from judge.errors import JudgeFailure
from judge.proctree import RUN_TOKEN_VARIABLE
from judge.syscall_filter import LoadableFilter

MIB = 1024 * 1024
STDERR_TAIL_BYTES = 2048
FALLBACK_STACK_BYTES = 8 * MIB


@dataclass(frozen=True)
class Limits:
    """The limits a run gets (for a submission: after its language's allowance). Seconds and MiB."""

    time_seconds: float
    wall_seconds: float
    memory_mib: int
    output_mib: int
    max_processes: int = 64


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
    syscall_filter: LoadableFilter | None = None
    stdin_fd: int | None = None
    stdout_fd: int | None = None
    """Pipe ends to use instead of stdin_path / stdout_path (an interactive problem's two programs talk through
    pipes). `run` owns them: it closes the judge's copies once the child has started."""


def memory_enforcement() -> str:
    """How memory is limited and measured on this machine (reported by `judge doctor` and every report)."""
    mechanism = cgroups.probe()
    if mechanism == "none":
        return "RLIMIT_AS per process + the process tree's RSS polled from /proc"
    return f"{mechanism} (memory limit and peak of the whole process tree)"


def run(spec: RunSpec, limits: Limits) -> RunStats:
    """Start `spec.argv` under `limits`, wait for it or kill it, clean up every process, return the facts."""
    group = cgroups.create(limits.memory_mib * MIB, limits.max_processes)
    try:
        return _run(spec, limits, group)
    finally:
        if group is not None:
            group.remove()  # also when interrupted: a control group must not outlive its run


def _run(spec: RunSpec, limits: Limits, group: cgroups.RunGroup | None) -> RunStats:
    output_bytes = limits.output_mib * MIB
    token = uuid.uuid4().hex
    judge_rss = proctree.own_rss() if group is None else 0
    forks_before = proctree.forks_so_far() if group is None else 0
    nproc = None if group is not None else proctree.tasks_now() + limits.max_processes
    preexec = child_setup(limits, group, output_bytes, spec.limit_address_space and group is None, nproc,
                           spec.syscall_filter)
    # The child could reopen its stdin for writing through /proc/self/fd/0 whatever mode it was opened in (in the
    # box too: the box's uid maps to the file's owner), so it reads a private copy, never the problem's test file.
    stdin_copy = spec.stdout_path.with_name(f"{spec.stdout_path.name}.stdin")
    if spec.stdin_fd is None:
        shutil.copyfile(spec.stdin_path, stdin_copy)
    try:
        with open(stdin_copy if spec.stdin_fd is None else os.devnull, "rb") as stdin, \
                open(spec.stdout_path, "wb") as stdout, open(spec.stderr_path, "wb") as stderr:
            started = time.monotonic()
            process = start(spec.argv, stdin=stdin if spec.stdin_fd is None else spec.stdin_fd,
                            stdout=stdout if spec.stdout_fd is None else spec.stdout_fd, stderr=stderr, cwd=spec.cwd,
                            env={**spec.env, RUN_TOKEN_VARIABLE: token}, preexec_fn=preexec)
    finally:
        stdin_copy.unlink(missing_ok=True)  # the child keeps its open descriptor to the copy
        for descriptor in (spec.stdin_fd, spec.stdout_fd):
            if descriptor is not None:
                os.close(descriptor)  # the child has its own copy; the pipe's other end must see it close
    if group is not None:
        group.reset_peak()
    spawned = proctree.Spawned(process.pid, forks_before, token)
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


def start(argv: list[str], **popen: Any) -> subprocess.Popen[bytes]:
    """`Popen` in a session of its own. The setup between fork and exec (joining the control group, limits, the
    syscall filter) failing is the judge's failure: a `JudgeFailure` naming the program, not a bare
    `SubprocessError`."""
    try:
        return subprocess.Popen(argv, start_new_session=True, **popen)
    except subprocess.SubprocessError as error:
        raise JudgeFailure(f"the judge could not start {argv[0]}: {error}") from None


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


def child_setup(limits: Limits, group: cgroups.RunGroup | None, output_bytes: int, limit_as: bool,
                 nproc: int | None, syscall_filter: LoadableFilter | None):
    """The function run in the child between fork and exec: join the cgroup, set rlimits, load the seccomp
    filter (last: it sets no_new_privs). `nproc` is the RLIMIT_NPROC to set, or None where the cgroup's pids
    limit counts the run's processes exactly."""
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
        if limit_as:
            # glibc reserves RLIMIT_STACK of address space for every new thread: under RLIMIT_AS the stack keeps
            # Linux's usual 8 MiB, or no thread would ever fit.
            _lower(resource.RLIMIT_STACK, FALLBACK_STACK_BYTES, resource.RLIM_INFINITY)
            _lower(resource.RLIMIT_AS, memory_bytes, memory_bytes)
        else:
            # BOJ lets the stack grow as far as the memory limit, so deep recursion in C++ is not an RE.
            _lower(resource.RLIMIT_STACK, memory_bytes, resource.RLIM_INFINITY)
        if syscall_filter is not None:
            syscall_filter.load()

    return setup


class _Watch:
    """Waits for the child's exit while checking CPU, wall and (without a cgroup) memory at short intervals."""

    def __init__(self, pid: int, group: cgroups.RunGroup | None, limits: Limits, started: float,
                 spawned: proctree.Spawned) -> None:
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
                    kill_group(self.pid)
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


def kill_group(pid: int) -> None:
    """SIGKILL the process group `pid` leads (every run starts its own session), if it still exists."""
    try:
        os.killpg(pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


def _kill_everything(pid: int, group: cgroups.RunGroup | None, spawned: proctree.Spawned) -> None:
    """Leave nothing behind: the control group, the process group, then (without a cgroup) the run's other
    processes: descendants that left the process group and escapees carrying the run's token."""
    if group is not None:
        group.kill_all()
    kill_group(pid)
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
