"""From the facts of a run to a verdict: TLE, MLE, OLE, RE, or None for a clean exit that the checker decides.

Pure and small on purpose: each rule is one line of the table tests in tests/runner/test_classify.py.
"""

from __future__ import annotations

import signal

from msgspec import Struct

from judge.runner.execute import RunStats, Tripped
from judge.runner.limits import Limits
from judge.verdicts import Verdict

STDERR_LINES_SHOWN = 5
FRAME_STARTS = ('File "', "at ")
"""How a stack frame's first line starts in Python's and Java's tracebacks."""


class Classification(Struct, frozen=True):
    """A verdict and why. The message's first line is the summary (for an RE: what ended the run and the error's
    headline); any further lines are the tail of stderr, kept as lines for the views to show below it."""

    verdict: Verdict
    message: str


def classify(stats: RunStats, limits: Limits, memory_errors: tuple[str, ...] = ()) -> Classification | None:
    """The verdict a run earned before any checker looks at its output, or None if it exited cleanly."""
    # A run refused a fork at the process limit and did not end cleanly: RE, before the memory or CPU it spent
    # meanwhile (refused forks fill memory on some kernels, a bomb spins on the CPU on all), so a fork bomb gets
    # one verdict on every kernel (execute.py).
    if stats.tripped is Tripped.PROCESSES and (stats.exit_code != 0 or stats.signal is not None):
        return Classification(Verdict.RE, f"too many processes (limit {limits.max_processes}){_stderr(stats)}")
    if stats.tripped is Tripped.MEMORY or (_exited_by_itself(stats) and _mentions(stats.stderr_tail, memory_errors)):
        return Classification(Verdict.MLE, f"memory limit {limits.memory_mib} MiB exceeded")
    # The CPU time decides, not a SIGXCPU: the judge's own RLIMIT_CPU backstop fires only past the limit, so a
    # SIGXCPU under it is the program's doing (it raised it, or lowered its own limit), an RE like any signal.
    if stats.tripped is Tripped.CPU or stats.cpu_seconds > limits.time_seconds:
        return Classification(Verdict.TLE, f"CPU time over {limits.time_seconds:g} s")
    if stats.tripped is Tripped.WALL:
        return Classification(Verdict.TLE, _wall_message(stats, limits))
    if stats.tripped is Tripped.OUTPUT or stats.signal == signal.SIGXFSZ:
        return Classification(Verdict.OLE, f"output over {limits.output_mib} MiB")
    if stats.signal is not None:
        return Classification(Verdict.RE, f"killed by {_signal_name(stats.signal)}{_stderr(stats)}")
    if stats.exit_code != 0:
        return Classification(Verdict.RE, f"exit code {stats.exit_code}{_stderr(stats)}")
    return None


def _wall_message(stats: RunStats, limits: Limits) -> str:
    """The wall limit, named as the backstop it is, with the CPU time that stayed under the CPU limit: a student
    reading only "time limit" would look for a slow loop in a program that was waiting. It claims no cause: an
    endless loop on a machine too busy to run it ends here too (judging/hints.py says what it usually is)."""
    backstop = "2 × the time limit + 1 s" if round(2 * limits.time_seconds + 1, 3) == limits.wall_seconds else ""
    waited = f", not counting {stats.waiting_seconds:.2f} s spent waiting for a CPU" if stats.waiting_seconds else ""
    return (
        f"wall time over {limits.wall_seconds:g} s (the wall-clock backstop"
        f"{': ' + backstop if backstop else ''}{waited}); CPU time {stats.cpu_seconds:.2f} s, under the "
        f"{limits.time_seconds:g} s limit"
    )


def _exited_by_itself(stats: RunStats) -> bool:
    """A non-zero exit the program chose, not one the judge caused: only then may its stderr name the verdict.

    A run the judge killed keeps the verdict of the limit that killed it, and a signal is RE, whatever the
    program printed (else printing `MemoryError` would turn a TLE or a crash into MLE). A time limit noticed by the
    watch loop (execute.py polls every 50 ms at most) whose kill found the program already exited with a code of its
    own did not end it: a JVM that threw OutOfMemoryError crosses the CPU limit while it prints the trace and shuts
    down, and whether the poll fell before or after its exit must not turn its MLE into TLE. An output over the
    limit is a fact of the files, not of timing: it stays OLE.
    """
    return (
        stats.exit_code is not None
        and stats.exit_code != 0
        and stats.signal is None
        and stats.tripped in (None, Tripped.CPU, Tripped.WALL)
    )


def _mentions(text: str, needles: tuple[str, ...]) -> bool:
    return any(needle in text for needle in needles)


def _signal_name(number: int) -> str:
    try:
        return signal.Signals(number).name
    except ValueError:
        return f"signal {number}"


def _stderr(stats: RunStats) -> str:
    """The error's headline on the first line, then the last lines of stderr below it, each kept as a line.

    The headline is the last line that is not indented: Python's `NameError: ...` (its frames are indented), Java's
    `Exception in thread "main" ...` or `Caused by: ...` (its frames start with a tab), C++'s `terminate called ...`.
    A student reads the reason first and need not scroll through the traceback.
    """
    lines = [line.rstrip() for line in stats.stderr_tail.splitlines() if line.strip()]
    if not lines:
        return ""
    headline = next((index for index in reversed(range(len(lines))) if not lines[index][0].isspace()), len(lines) - 1)
    start = max(0, len(lines) - STDERR_LINES_SHOWN)
    # Start the tail at a frame (`File "..."`, `at ...`), not mid-frame on a source line or its carets.
    start = next((index for index in range(start, len(lines)) if lines[index].lstrip().startswith(FRAME_STARTS)), start)
    tail = [line for index, line in enumerate(lines[start:], start) if index != headline]
    return ": " + "\n".join([lines[headline].strip(), *tail])
