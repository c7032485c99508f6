"""Running one command under limits. Facts only: what happened, never a verdict.

`run` reads start → watch → kill → facts. The command (wrapped by the sandbox) starts through a `Starter`
(start.py: a fork of the judge, or launcher/: a launcher process kept for a submission) in a fresh session, with
stdin from a private copy of the test's input and stdout/stderr to capped files, contained by a `Containment`
(containment/: a control group, /proc polling or psutil), and is watched until it exits or trips a limit:

- CPU time of the whole tree over the limit ends the run (RLIMIT_CPU is a per-process backstop in a fork of the
  judge).
- Wall time over the wall limit ends sleepers and blocked readers. Waiting is not running: the time the tree
  spent ready but waiting for a CPU (containment/waiting.py) is not counted against it, up to WAITING_CEILING
  times the wall limit in all, so a busy machine does not turn CPU time a program never got into a TLE.
- Memory: the containment's hard limit and peak, or its polled RSS with RLIMIT_AS per process.
- Processes: the containment's pids limit, or RLIMIT_NPROC.
- Output: RLIMIT_FSIZE stops writes just past the output limit.
- Afterwards every process the command started is killed.
- Output files: new ones for a run, or those of the run before it under the same `KeptOutputs` (a submission's
  tests) once every process of that run is known gone, emptied: a new file costs ext4 0.1 ms of CPU.
- The judge's own disk: a run whose output files' folder could not have held all it was still allowed to write
  is the judge's failure (`JudgeFailure`, JE), whatever the run did: its verdict may come from a refused write.
The files (the input's private copy, the output files, kept or new, the disk's room) are run_files.py's.
"""

from __future__ import annotations

import enum
import functools
import os
import signal
import time
from contextlib import ExitStack
from pathlib import Path

from msgspec import Struct

from judge.errors import JudgeFailure
from judge.runner.containment.protocol import RUN_TOKEN_VARIABLE, Containment, Guards, Run, Sample, kill_process_group
from judge.runner.limits import MIB, Limits
from judge.runner.run_files import KeptOutputs, RunFiles
from judge.runner.start import EXIT_REPORT_SECONDS, Exited, Files, RunLimits, Spawner, Started, Starter
from judge.runner.syscall_filter import LoadableFilter

SHORTEST_WAIT_SECONDS = 0.005  # between two looks at a running tree (LookSchedule)
LONGEST_WAIT_SECONDS = 0.05
WAITING_CEILING = 4
"""However long a run waited for a CPU, it is ended at this many times its wall limit: the backstop's backstop
(a tree could keep threads runnable and starved under a lower scheduling class to wait on the machine's load)."""


class Tripped(enum.Enum):
    """Which limit ended a run early."""

    CPU = "cpu"
    WALL = "wall"
    MEMORY = "memory"
    OUTPUT = "output"
    PROCESSES = "processes"


class RunStats(Struct, frozen=True):
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
    stopped_at: float | None = None
    """When (time.monotonic) the judge decided to stop the run at a limit, before its kill; None when the run
    ended by itself. An interactive validator that had finished before this was not reacting to the kill."""
    waiting_seconds: float | None = None
    """How long the tree had waited for a CPU when it reached its wall limit (not counted against that limit);
    None when it never reached it, or where the containment cannot tell (then a wall TLE is run again)."""

    @property
    def peak_mib(self) -> float:
        return self.peak_bytes / MIB


class RunSpec(Struct, frozen=True):
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


@functools.cache
def online_cpus() -> int | None:
    """The machine's online CPUs, looked up once per process: `os.cpu_count` reads /sys each time (11 µs of every
    test, measured). A CPU brought online while the judge runs (a VM's hot-plugged one) makes it look at a run
    using more CPUs than it counted later than `LookSchedule` promises, up to its longest wait: what the run
    reached meanwhile (its memory limit, after the CPU limit) decides then. Restart the judge after adding CPUs."""
    return os.cpu_count()


def run(spec: RunSpec, limits: Limits, containment: Containment) -> RunStats:
    """Start `spec.argv` under `limits` by a fork of the judge, wait for it or kill it, clean up every process,
    return the facts (a compile, a checker, a validator: one run). `containment` is the one the command chose
    (passed down, never picked here). A submission's tests use `begin`."""
    return begin(spec, limits, containment).finish()


def begin(
    spec: RunSpec,
    limits: Limits,
    containment: Containment,
    starter: Starter | None = None,
    kept: KeptOutputs | None = None,
    give_way_at: float | None = None,
) -> PendingRun:
    """A run up to its start: its files, its containment, and its start; `PendingRun.finish` watches it, kills
    what is left and returns the facts (or `cancel` stops it). `starter` defaults to a fork of the judge; `kept`:
    the output files of the run before, to empty and use again (else new ones); `give_way_at`: the moment
    (time.monotonic) from which the run's processes run at a lower CPU priority, its judging gone slow
    (containment/priority.py), None: never. A starter that queues runs (`Starter.queues`) starts it only after
    those begun before it have ended: so the next test's run can be begun while one goes on."""
    # The files first: emptying the output files (or making them anew) frees the earlier run's pages, so what it
    # wrote is no longer charged to a control group reused from run to run when its counters are read.
    paths, pipes = (spec.stdin_path, spec.stdout_path, spec.stderr_path), (spec.stdin_fd, spec.stdout_fd)
    held = ExitStack()  # what the run holds open until `PendingRun.finish` (or `cancel`) closes it
    try:
        files = held.enter_context(RunFiles(paths, pipes, kept))
        contained = containment.open(limits.memory_mib, limits.max_processes)
        held.callback(contained.close)  # also when interrupted: a control group must not outlive its run
        schedule = LookSchedule(limits, online_cpus(), not containment.uses_groups, give_way_at)
        starter = starter or Spawner(spec.syscall_filter)
        begun = time.monotonic()
        try:
            child = starter.start(
                spec.argv,
                spec.cwd,
                {**spec.env, RUN_TOKEN_VARIABLE: contained.contained.token},
                Files(files.stdin, files.stdout, files.stderr),
                contained.contained,
                run_limits(limits, contained.contained.guards, spec.limit_address_space),
            )
            # From the exec on: a launcher still emptying the box after the test before is no one's wall time.
            started = time.monotonic()
        finally:
            files.child_started()
        contained.started(child.pid)
        if schedule.give_way_at is not None and started >= schedule.give_way_at:
            contained.give_way()  # its judging is slow already: from its first instruction on
        return PendingRun(spec, schedule, files, contained, starter, child, begun, started, held)
    except BaseException:
        held.close()
        raise


class PendingRun(Struct, frozen=True):
    """A run begun (`begin`): what `finish` needs to watch it, kill what is left and read the facts, and what it
    holds open until then (its files and containment, `held`)."""

    spec: RunSpec
    schedule: LookSchedule
    files: RunFiles
    contained: Run
    starter: Starter
    child: Started
    begun: float
    started: float
    held: ExitStack

    def finish(self) -> RunStats:
        """Watch the run to its end (or a limit), kill every process it left, return the facts."""
        with self.held:
            stats = self._finish()
            self.files.reusable = self.contained.emptied()
            return stats

    def cancel(self) -> None:
        """Stop the run, whatever it has done, and everything it started: it is not wanted (begun ahead for a
        test the judging no longer runs). Nothing of it is read."""
        with self.held:
            try:
                self.child.cancel()
            finally:
                self.contained.kill()
            self.files.reusable = self.contained.emptied()

    def _finish(self) -> RunStats:
        spec, files, contained = self.spec, self.files, self.contained
        limits = self.schedule.limits
        child = self.child
        # Begun behind a run that went on: it started no sooner than that one was seen to end.
        started = max(self.started, child.queued_until or 0.0)
        try:
            exited, tripped, stopped_at, waited = _watch(child, contained, self.schedule, self.begun, started)
        finally:
            contained.kill()
            if child.pid is not None:
                kill_process_group(child.pid)
        if exited.started_at is not None:  # within what the judge saw, whatever the starter's clock says
            started = min(max(started, exited.started_at), time.monotonic())
        wall = time.monotonic() - started
        outcome = contained.outcome(exited.cpu_seconds, exited.maxrss_bytes, self.starter.starter_rss)
        # Refused forks first, whatever else stopped the run: they are its cause, and only they are the same on
        # every kernel. A fork refused at the pids limit has already been charged its kernel memory on Linux 6.18,
        # so a fork bomb fills the memory limit with them (a static C one: 64 MiB in 0.1-0.5 s, then the kernel's
        # OOM kill); on 6.1 a refused fork costs nothing and the same bomb runs into the CPU limit. Either way: RE.
        if outcome.hit_process_limit and tripped is not Tripped.OUTPUT:
            tripped = Tripped.PROCESSES
        if tripped is None and outcome.hit_memory_limit:
            tripped = Tripped.MEMORY
        output_bytes = limits.output_mib * MIB
        stdout_size = 0 if spec.stdout_fd is not None else files.size(files.stdout)  # a pipe keeps nothing
        stderr_size = files.size(files.stderr)
        files.require_room(output_bytes + 1)  # RLIMIT_FSIZE lets each file grow to the limit + 1
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
            stderr_tail=files.stderr_tail(),
            stopped_at=stopped_at,
            waiting_seconds=waited,
        )


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


def _watch(
    child: Started, contained: Run, schedule: LookSchedule, begun: float, started: float
) -> tuple[Exited, Tripped | None, float | None, float | None]:
    """Wait for the run's end, looking at its CPU, wall and (where nothing caps it) memory when `schedule` says;
    on a limit, kill the run and wait for its end. Returns how it ended, the limit that stopped it and when, and
    the time it had waited for a CPU when it reached the wall limit (None: it did not, or no one can tell).
    Nothing of the run was counted before `begun` (its counters start from what its group held then)."""
    limits = schedule.limits
    cpu_seconds, sampled_at, look = 0.0, begun, 0
    waited: float | None = None
    while True:
        exited = child.wait(schedule.wait(look, cpu_seconds, sampled_at, started, time.monotonic(), waited or 0.0))
        if exited is not None:
            return exited, None, None, waited
        sampled_at = time.monotonic()  # before the read: what it reads was counted by then at the latest
        sample = contained.sample()
        elapsed = time.monotonic() - started
        tripped = _tripped(sample, limits, charged_wall(elapsed, waited, limits))
        if tripped is Tripped.WALL:  # only now is the waiting worth reading: it has grown since the last read
            waited = contained.waiting_seconds()
            tripped = _tripped(sample, limits, charged_wall(elapsed, waited, limits))
        if tripped is not None:
            stopped_at = time.monotonic()
            contained.kill()
            if child.pid is not None:
                kill_process_group(child.pid)
            exited = child.wait(EXIT_REPORT_SECONDS)
            if exited is None:
                raise JudgeFailure(f"a run did not end {EXIT_REPORT_SECONDS:.0f} s after it was killed")
            return exited, tripped, stopped_at, waited
        if schedule.give_way_at is not None and sampled_at >= schedule.give_way_at:
            contained.give_way()  # at every look from then on: a process forked since is lowered too
        cpu_seconds, look = sample.cpu_seconds, look + 1


def charged_wall(elapsed: float, waited: float | None, limits: Limits) -> float:
    """The wall time the backstop counts: `elapsed` less the time the tree waited for a CPU (`waited`, None where
    unknown), except past WAITING_CEILING times the wall limit, where all of it counts."""
    if waited is None or elapsed > WAITING_CEILING * limits.wall_seconds:
        return elapsed
    return elapsed - min(waited, elapsed)


class LookSchedule(Struct, frozen=True):
    """When the watch loop next looks at a running tree: no sooner than a limit could have been reached.

    Each look wakes the judge and reads the tree's counters, and finds nothing unless a limit is near: a
    doubling wait from 5 ms looked twice at every Python test (alive about 20 ms) and hardly ever at a C one
    (1 ms), 1.5 looks per test more, which made the judge's own cost per test depend on the language. The
    CPU time of a tree grows at most `cpus` seconds per second and its wall time at one, so until the earliest
    moment either could reach its limit there is nothing to see: the next look is then (no sooner than
    SHORTEST_WAIT_SECONDS after the last one, so a run near its limit is not looked at in a spin, and no later
    than LONGEST_WAIT_SECONDS). A limit is thus seen at most one wait (5 ms) after it is reached, sooner than
    by the doubling wait, whose look could come 50 ms late. Memory that only polling sees (`memory_polled`: no
    control group caps it) can grow at any moment, and so can CPU time where the number of CPUs is unknown:
    there the look comes no later than on the doubling wait (5, 10, 20, 40, then every 50 ms). A run whose
    judging will go slow (`give_way_at`) is looked at then too, to give way."""

    limits: Limits
    cpus: int | None  # the most CPUs the tree can run on at once (every online one: a program can widen its affinity)
    memory_polled: bool
    give_way_at: float | None = None

    def wait(
        self, look: int, cpu_seconds: float, sampled_at: float, started: float, now: float, waited: float = 0.0
    ) -> float:
        """Seconds to wait from `now` before look number `look` (from 0); the last look, at `sampled_at`, found
        `cpu_seconds` (0 at `sampled_at` = when the run began, before any look); the wall clock started at
        `started`, and `waited` seconds of it (as last read) were spent waiting for a CPU."""
        bounds = [LONGEST_WAIT_SECONDS, started + self.limits.wall_seconds + waited - now]
        if self.cpus is not None:
            bounds.append(sampled_at + (self.limits.time_seconds - cpu_seconds) / self.cpus - now)
        if self.memory_polled or self.cpus is None:
            bounds.append(SHORTEST_WAIT_SECONDS * 2 ** min(look, 4))
        if self.give_way_at is not None and self.give_way_at > now:
            bounds.append(self.give_way_at - now)
        return max(SHORTEST_WAIT_SECONDS, min(bounds))


def _tripped(sample: Sample, limits: Limits, elapsed: float) -> Tripped | None:
    if sample.rss_bytes > limits.memory_mib * MIB:
        return Tripped.MEMORY
    if sample.cpu_seconds > limits.time_seconds:
        return Tripped.CPU
    if elapsed > limits.wall_seconds:
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
