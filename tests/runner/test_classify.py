"""Table tests of `classify`: one row per rule, RunStats + Limits -> verdict and message fragments (or None)."""

from __future__ import annotations

import msgspec.structs
import signal

import pytest

from judge.runner.classify import classify
from judge.runner.execute import RunStats, Tripped
from judge.runner.limits import Limits
from judge.verdicts import Verdict

LIMITS = Limits(time_seconds=1.0, wall_seconds=3.0, memory_mib=256, output_mib=1, max_processes=64)
MEMORY_ERRORS = ("MemoryError", "java.lang.OutOfMemoryError")
CLEAN = RunStats(cpu_seconds=0.1, wall_seconds=0.2, peak_bytes=10 * 2**20, exit_code=0, signal=None, tripped=None,
                 stdout_bytes=10, stderr_bytes=0, stderr_tail="")


def stats(**changes) -> RunStats:
    return msgspec.structs.replace(CLEAN, **changes)


MLE, TLE, OLE, RE = Verdict.MLE, Verdict.TLE, Verdict.OLE, Verdict.RE

RULES = [
    # (id, stats, verdict, fragments the message must contain)
    ("memory tripped", stats(tripped=Tripped.MEMORY, exit_code=None, signal=signal.SIGKILL), MLE, ["256 MiB"]),
    ("memory tripped, clean exit", stats(tripped=Tripped.MEMORY), MLE, ["256 MiB"]),
    ("MemoryError with exit 1", stats(exit_code=1, stderr_tail="Traceback\nMemoryError"), MLE, ["256 MiB"]),
    ("Java OOM with exit 1",
     stats(exit_code=1, stderr_tail='Exception in thread "main" java.lang.OutOfMemoryError: Java heap space'),
     MLE, ["memory"]),
    ("MemoryError text but exit 0 is not MLE", stats(stderr_tail="MemoryError"), None, []),
    ("MemoryError cannot turn a killed CPU TLE into MLE",
     stats(tripped=Tripped.CPU, exit_code=None, signal=signal.SIGKILL, cpu_seconds=1.02, stderr_tail="MemoryError"),
     TLE, ["CPU"]),
    ("MemoryError cannot turn a wall TLE into MLE",
     stats(tripped=Tripped.WALL, exit_code=None, signal=signal.SIGKILL, wall_seconds=3.1, stderr_tail="MemoryError"),
     TLE, ["wall"]),
    ("a JVM that exited with OutOfMemoryError as the CPU limit was noticed is MLE",
     stats(tripped=Tripped.CPU, exit_code=1, cpu_seconds=1.008,
           stderr_tail='Exception in thread "main" java.lang.OutOfMemoryError: Java heap space'), MLE, ["256 MiB"]),
    ("an exit with MemoryError as the wall limit was noticed is MLE",
     stats(tripped=Tripped.WALL, exit_code=1, wall_seconds=3.01, stderr_tail="MemoryError"), MLE, ["256 MiB"]),
    ("an exit of its own as the CPU limit was noticed, without a memory error, stays TLE",
     stats(tripped=Tripped.CPU, exit_code=1, cpu_seconds=1.008, stderr_tail="Traceback\nValueError"), TLE, ["CPU"]),
    ("MemoryError cannot turn SIGSEGV into MLE",
     stats(exit_code=None, signal=signal.SIGSEGV, stderr_tail="MemoryError"), RE, ["SIGSEGV"]),
    ("Java OOM cannot turn SIGSEGV into MLE",
     stats(exit_code=None, signal=signal.SIGSEGV, stderr_tail="java.lang.OutOfMemoryError"), RE, ["SIGSEGV"]),
    ("MemoryError cannot turn an output trip into MLE",
     stats(tripped=Tripped.OUTPUT, exit_code=1, stderr_tail="MemoryError"), OLE, ["output"]),
    ("MemoryError with a signal exit status is RE",
     stats(exit_code=None, signal=signal.SIGABRT, stderr_tail="MemoryError"), RE, ["SIGABRT"]),
    ("memory beats CPU", stats(tripped=Tripped.MEMORY, cpu_seconds=5.0), MLE, []),
    ("CPU tripped", stats(tripped=Tripped.CPU, exit_code=None, signal=signal.SIGKILL, cpu_seconds=1.02), TLE,
     ["CPU", "1 s"]),
    ("CPU over without a trip", stats(cpu_seconds=1.5), TLE, ["CPU"]),
    ("CPU exactly at the limit is fine", stats(cpu_seconds=1.0), None, []),
    ("SIGXCPU past the limit (the RLIMIT_CPU backstop)", stats(exit_code=None, signal=signal.SIGXCPU,
                                                               cpu_seconds=3.0), TLE, ["CPU time over 1 s"]),
    ("SIGXCPU under the limit is the program's own signal", stats(exit_code=None, signal=signal.SIGXCPU,
                                                                  cpu_seconds=0.9), RE, ["killed by SIGXCPU"]),
    ("wall tripped", stats(tripped=Tripped.WALL, exit_code=None, signal=signal.SIGKILL, wall_seconds=3.1), TLE,
     ["wall time over 3 s", "2 × the time limit + 1 s", "CPU time 0.10 s, under the 1 s limit"]),
    ("wall tripped with a SIGXCPU status names the wall", stats(tripped=Tripped.WALL, exit_code=None,
                                                                signal=signal.SIGXCPU, cpu_seconds=0.88), TLE,
     ["wall time over 3 s", "CPU time 0.88 s"]),
    ("CPU beats wall", stats(tripped=Tripped.WALL, cpu_seconds=2.0), TLE, ["CPU"]),
    ("output tripped", stats(tripped=Tripped.OUTPUT, exit_code=1, stderr_tail="OSError: File too large"), OLE,
     ["1 MiB"]),
    ("SIGXFSZ", stats(exit_code=None, signal=signal.SIGXFSZ), OLE, ["output"]),
    ("too many processes, failed", stats(tripped=Tripped.PROCESSES, exit_code=1, stderr_tail="BlockingIOError"), RE,
     ["processes", "64", "BlockingIOError"]),
    ("too many processes, but coped", stats(tripped=Tripped.PROCESSES), None, []),
    ("too many processes beats the CPU a fork bomb spun", stats(tripped=Tripped.PROCESSES, exit_code=None,
                                                                signal=signal.SIGKILL, cpu_seconds=3.0), RE,
     ["processes"]),
    ("SIGSEGV", stats(exit_code=None, signal=signal.SIGSEGV), RE, ["SIGSEGV"]),
    ("SIGABRT with stderr", stats(exit_code=None, signal=signal.SIGABRT, stderr_tail="terminate called\nboom"), RE,
     ["SIGABRT", "terminate called", "boom"]),
    ("unknown signal number", stats(exit_code=None, signal=77), RE, ["signal 77"]),
    ("exit code", stats(exit_code=3), RE, ["exit code 3"]),
    ("exit code with stderr", stats(exit_code=1, stderr_tail="Traceback\nZeroDivisionError: division by zero"), RE,
     ["exit code 1", "ZeroDivisionError"]),
    ("too many processes with MemoryError stays RE",
     stats(tripped=Tripped.PROCESSES, exit_code=1, stderr_tail="MemoryError"), RE, ["processes"]),
    ("clean exit", CLEAN, None, []),
]


@pytest.mark.parametrize(("run", "verdict", "fragments"), [row[1:] for row in RULES], ids=[row[0] for row in RULES])
def test_rule(run: RunStats, verdict: Verdict | None, fragments: list[str]) -> None:
    result = classify(run, LIMITS, MEMORY_ERRORS)
    if verdict is None:
        assert result is None
        return
    assert result is not None
    assert result.verdict is verdict, result
    for fragment in fragments:
        assert fragment in result.message, (fragment, result.message)


def test_memory_error_text_needs_the_language_to_name_it() -> None:
    """Without the language's memory-error texts a MemoryError is just a run-time error."""
    result = classify(stats(exit_code=1, stderr_tail="MemoryError"), LIMITS)
    assert result is not None and result.verdict is RE


def test_stderr_shows_only_the_last_lines() -> None:
    tail = "\n".join(f"line {number}" for number in range(1, 21))
    result = classify(stats(exit_code=1, stderr_tail=tail), LIMITS)
    assert result is not None
    assert "line 20" in result.message and "line 16" in result.message and "line 15" not in result.message


PYTHON_TRACEBACK = """Traceback (most recent call last):
  File "/box/main.py", line 3, in <module>
    main()
  File "/box/main.py", line 2, in main
    exit(0)
    ^^^^
NameError: name 'exit' is not defined"""

JAVA_TRACE = """Exception in thread "main" java.lang.ArrayIndexOutOfBoundsException: Index 5 out of bounds for length 5
\tat Main.solve(Main.java:9)
\tat Main.main(Main.java:4)"""

HEADLINES = [
    # (id, stderr, the message's first line, the lines that follow it)
    ("python: the exception comes first", PYTHON_TRACEBACK, "exit code 1: NameError: name 'exit' is not defined",
     ["  File \"/box/main.py\", line 2, in main", "    exit(0)", "    ^^^^"]),  # from a frame, not mid-frame
    ("java: the exception line, then the frames", JAVA_TRACE,
     'exit code 1: Exception in thread "main" java.lang.ArrayIndexOutOfBoundsException: Index 5 out of bounds '
     "for length 5", ["\tat Main.solve(Main.java:9)", "\tat Main.main(Main.java:4)"]),
    ("c++: the abort's reason, then what()", "terminate called after throwing an instance of 'std::out_of_range'\n"
     "  what():  vector::_M_range_check", "exit code 1: terminate called after throwing an instance of "
     "'std::out_of_range'", ["  what():  vector::_M_range_check"]),
    ("only indented lines: the last one", "  a\n  b", "exit code 1: b", ["  a"]),
    ("blank lines are dropped", "\n\nboom\n\n", "exit code 1: boom", []),
]


@pytest.mark.parametrize(("stderr", "first", "rest"), [row[1:] for row in HEADLINES], ids=[row[0] for row in HEADLINES])
def test_re_message_puts_the_error_first_and_keeps_lines(stderr: str, first: str, rest: list[str]) -> None:
    result = classify(stats(exit_code=1, stderr_tail=stderr), LIMITS)
    assert result is not None and result.verdict is RE
    assert result.message.split("\n") == [first, *rest]


def test_re_message_without_stderr_is_one_line() -> None:
    result = classify(stats(exit_code=None, signal=signal.SIGSEGV), LIMITS)
    assert result is not None and result.message == "killed by SIGSEGV"


def test_a_wall_limit_of_another_shape_is_not_called_the_formula() -> None:
    """A checker's limits (wall 60 s for CPU 30 s) are not the submission's 2 × T + 1: the message says only what
    is true."""
    limits = msgspec.structs.replace(LIMITS, time_seconds=30.0, wall_seconds=60.0)
    result = classify(stats(tripped=Tripped.WALL, exit_code=None, signal=signal.SIGKILL, cpu_seconds=2.0), limits)
    assert result is not None and result.verdict is TLE
    assert result.message == ("wall time over 60 s (the wall-clock backstop); CPU time "
                              "2.00 s, under the 30 s limit")
