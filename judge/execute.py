"""Running one command under limits. Facts only: what happened, never a verdict.

`run` reads start → watch → kill → facts. The command (wrapped by the sandbox) starts through a `Starter`
(judge/launcher.py: a fork of the judge, or a launcher process kept for a submission) in a fresh session, with
stdin from a private copy of the test's input and stdout/stderr to capped files, contained by a `Containment`
(judge/containment.py: a control group, /proc polling or psutil), and is watched until it exits or trips a limit:

- CPU time of the whole tree over the limit ends the run (RLIMIT_CPU is a per-process backstop in a fork of the
  judge).
- Wall time over the wall limit ends sleepers and blocked readers.
- Memory: the containment's hard limit and peak, or its polled RSS with RLIMIT_AS per process.
- Processes: the containment's pids limit, or RLIMIT_NPROC.
- Output: RLIMIT_FSIZE stops writes just past the output limit.
- Afterwards every process the command started is killed.
"""

from __future__ import annotations

import enum
import os
import shutil
import signal
import time
from dataclasses import dataclass
from pathlib import Path

from judge.containment import Containment, Guards, Run, choose_containment, kill_process_group
from judge.errors import JudgeFailure
from judge.launcher import EXIT_REPORT_SECONDS, Exited, Files, RunLimits, Spawner, Started, Starter
from judge.proctree import RUN_TOKEN_VARIABLE
from judge.syscall_filter import LoadableFilter

MIB = 1024 * 1024
STDERR_TAIL_BYTES = 2048


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


def run(spec: RunSpec, limits: Limits, containment: Containment | None = None,
        starter: Starter | None = None) -> RunStats:
    """Start `spec.argv` under `limits`, wait for it or kill it, clean up every process, return the facts.
    `containment` defaults to the best this machine has, `starter` to a fork of the judge."""
    contained = (containment or choose_containment()).open(limits.memory_mib, limits.max_processes)
    try:
        return _run(spec, limits, contained, starter or Spawner(spec.syscall_filter))
    finally:
        contained.close()  # also when interrupted: a control group must not outlive its run


def run_limits(limits: Limits, guards: Guards, limit_address_space: bool) -> RunLimits:
    """The rlimits of a run under `limits`, as its containment needs them (`limit_address_space`: False for a
    language whose runtime reserves more address space than it uses, a JVM)."""
    return RunLimits(
        cpu_backstop_seconds=int(limits.time_seconds) + 2,
        output_bytes=limits.output_mib * MIB,
        memory_bytes=limits.memory_mib * MIB,
        limit_address_space=limit_address_space and guards.limit_address_space,
        max_tasks=guards.max_tasks,
    )


def _run(spec: RunSpec, limits: Limits, contained: Run, starter: Starter) -> RunStats:
    output_bytes = limits.output_mib * MIB
    token = contained.contained.token
    # The child could reopen its stdin for writing through /proc/self/fd/0 whatever mode it was opened in (in the
    # box too: the box's uid maps to the file's owner), so it reads a private copy, never the problem's test file.
    stdin_copy = spec.stdout_path.with_name(f"{spec.stdout_path.name}.stdin")
    if spec.stdin_fd is None:
        shutil.copyfile(spec.stdin_path, stdin_copy)
    try:
        with open(stdin_copy if spec.stdin_fd is None else os.devnull, "rb") as stdin, \
                open(spec.stdout_path, "wb") as stdout, open(spec.stderr_path, "wb") as stderr:
            files = Files(stdin.fileno() if spec.stdin_fd is None else spec.stdin_fd,
                          stdout.fileno() if spec.stdout_fd is None else spec.stdout_fd, stderr.fileno())
            child = starter.start(spec.argv, spec.cwd, {**spec.env, RUN_TOKEN_VARIABLE: token}, files,
                                  contained.contained,
                                  run_limits(limits, contained.contained.guards, spec.limit_address_space))
            # From the exec on: a launcher still emptying the box after the test before is no one's wall time.
            started = time.monotonic()
    finally:
        stdin_copy.unlink(missing_ok=True)  # the child keeps its open descriptor to the copy
        for descriptor in (spec.stdin_fd, spec.stdout_fd):
            if descriptor is not None:
                os.close(descriptor)  # the child has its own copy; the pipe's other end must see it close
    contained.started(child.pid)
    try:
        exited, tripped = _watch(child, contained, limits, started)
    finally:
        contained.kill()
        if child.pid is not None:
            kill_process_group(child.pid)
    wall = time.monotonic() - started
    outcome = contained.outcome(exited.cpu_seconds, exited.maxrss_bytes, starter.starter_rss)
    if tripped is None and outcome.hit_memory_limit:
        tripped = Tripped.MEMORY
    if tripped is None and outcome.hit_process_limit:
        tripped = Tripped.PROCESSES
    stdout_size = spec.stdout_path.stat().st_size
    stderr_size = spec.stderr_path.stat().st_size
    if tripped is None and max(stdout_size, stderr_size) > output_bytes:
        tripped = Tripped.OUTPUT
    exit_code, killed_by = _decode_status(exited.status, spec.signals_as_exit_codes)
    return RunStats(
        cpu_seconds=outcome.cpu_seconds,
        wall_seconds=wall,
        peak_bytes=outcome.peak_bytes,
        exit_code=exit_code,
        signal=killed_by,
        tripped=tripped,
        stdout_bytes=stdout_size,
        stderr_bytes=stderr_size,
        stderr_tail=_tail(spec.stderr_path),
    )


def _watch(child: Started, contained: Run, limits: Limits, started: float) -> tuple[Exited, Tripped | None]:
    """Wait for the run's end while checking CPU, wall and (where nothing caps it) memory at short intervals;
    on a limit, kill the run and wait for its end."""
    interval = 0.005
    while True:
        exited = child.wait(interval)
        if exited is not None:
            return exited, None
        tripped = _check(contained, limits, started)
        if tripped is not None:
            contained.kill()
            if child.pid is not None:
                kill_process_group(child.pid)
            exited = child.wait(EXIT_REPORT_SECONDS)
            if exited is None:
                raise JudgeFailure(f"a run did not end {EXIT_REPORT_SECONDS:.0f} s after it was killed")
            return exited, tripped
        interval = min(interval * 2, 0.05)


def _check(contained: Run, limits: Limits, started: float) -> Tripped | None:
    sample = contained.sample()
    if sample.rss_bytes > limits.memory_mib * MIB:
        return Tripped.MEMORY
    if sample.cpu_seconds > limits.time_seconds:
        return Tripped.CPU
    if time.monotonic() - started > limits.wall_seconds:
        return Tripped.WALL
    return None


def _decode_status(status: int, signals_as_exit_codes: bool) -> tuple[int | None, int | None]:
    """(exit code, None) or (None, signal); a wrapper's exit code 128 + N means the program died of signal N."""
    if os.WIFSIGNALED(status):
        return None, os.WTERMSIG(status)
    code = os.WEXITSTATUS(status)
    if signals_as_exit_codes and 128 < code < 128 + signal.NSIG:
        return None, code - 128
    return code, None


def _tail(path: Path) -> str:
    """The last lines of a (capped) stderr file, decoded for display."""
    with open(path, "rb") as handle:
        handle.seek(max(0, path.stat().st_size - STDERR_TAIL_BYTES))
        data = handle.read()
    return data.decode("utf-8", errors="replace").strip()
