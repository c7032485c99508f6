"""The feedback policy (issue 39, items 2 and 16): a hidden test shows a student no byte its program wrote, an RE
its cause as BOJ says it, and a JE no path of the server's; samples and the teacher keep everything.

The RE messages are classify()'s own, from the stderr an attacker would print, so a change of its wording that
the cause no longer reads shows here."""

from __future__ import annotations

import msgspec.structs
import signal

import pytest

from judge.judging.feedback import (
    HIDDEN_JE_NOTICE,
    HIDDEN_MESSAGES,
    HIDDEN_NOTICE,
    POLICIES,
    SERVER_PATH_SHOWN,
    STUDENT,
    TEACHER,
    shown,
    shown_case,
    shown_error,
    without_server_paths,
)
from judge.judging.results import CaseResult, SubmissionResult
from judge.judging.runtime_causes import STANDARD_ERRORS, error_class
from judge.runner.classify import classify
from judge.runner.execute import RunStats, Tripped
from judge.runner.limits import Limits
from judge.verdicts import Verdict

SECRET = "s3cr3t-4271"
LIMITS = Limits(time_seconds=1.0, wall_seconds=3.0, memory_mib=256, output_mib=1, max_processes=64)
ENDED = RunStats(cpu_seconds=0.1, wall_seconds=0.2, peak_bytes=10 * 2**20, exit_code=1, signal=None, tripped=None,
                 stdout_bytes=10, stderr_bytes=100, stderr_tail="")


def re_message(stderr: str, **changes) -> str:
    """The message classify() gives an RE that printed `stderr`."""
    classified = classify(msgspec.structs.replace(ENDED, stderr_tail=stderr, **changes), LIMITS)
    assert classified is not None and classified.verdict is Verdict.RE
    return classified.message


def case(verdict: Verdict, message: str, *, sample: bool = False, diff: str = "") -> CaseResult:
    return CaseResult("sample1" if sample else "7", verdict, 0.01, 0.02, 3.0, message=message, is_sample=sample,
                      diff=diff)


PYTHON_TRACE = 'Traceback (most recent call last):\n  File "/program/Main.py", line 3, in <module>\n'
CAUSES = [
    # (what the program did, its stderr and how it ended, the cause a student reads)
    ("Python's own error", PYTHON_TRACE + f"ZeroDivisionError: {SECRET}", {}, "non-zero exit code: ZeroDivisionError"),
    ("a standard error carrying the input", PYTHON_TRACE + f"ValueError: invalid literal: '{SECRET}'", {},
     "non-zero exit code: ValueError"),
    ("a class named after the input", PYTHON_TRACE + f"S{SECRET.replace('-', '_')}: {SECRET}", {}, "non-zero exit code"),
    ("a dotted class named after the input", PYTHON_TRACE + f"{SECRET.replace('-', '_')}.ValueErrorX: x", {},
     "non-zero exit code"),
    ("the input alone on stderr", f"{SECRET}\n{SECRET}", {"exit_code": 3}, "non-zero exit code"),
    ("a faked last line", f"{SECRET}\nIndexError: {SECRET}", {"exit_code": 42}, "non-zero exit code: IndexError"),
    ("Java", f'Exception in thread "main" java.lang.ArithmeticException: {SECRET}\n\tat Main.main(Main.java:5)', {},
     "non-zero exit code: ArithmeticException"),
    ("Java, a thread named after the input", f'Exception in thread "{SECRET}" java.lang.NullPointerException', {},
     "non-zero exit code: NullPointerException"),
    ("Java's cause", f"Exception in thread \"main\" java.lang.RuntimeException: x\nCaused by: "
     f"java.lang.NumberFormatException: For input string: \"{SECRET}\"\n\tat Main.main(Main.java:5)", {},
     "non-zero exit code: NumberFormatException"),
    ("C++", f"terminate called after throwing an instance of 'std::out_of_range'\n  what():  {SECRET}",
     {"exit_code": None, "signal": signal.SIGABRT}, "killed by SIGABRT: std::out_of_range"),
    ("C++, a class named after the input", f"terminate called after throwing an instance of '{SECRET}'",
     {"exit_code": None, "signal": signal.SIGABRT}, "killed by SIGABRT"),
    ("a segfault", "", {"exit_code": None, "signal": signal.SIGSEGV}, "killed by SIGSEGV"),
    ("a fork bomb", f"BlockingIOError: {SECRET}", {"tripped": Tripped.PROCESSES},
     "too many processes (limit 64): BlockingIOError"),
]


@pytest.mark.parametrize(("stderr", "changes", "cause"), [row[1:] for row in CAUSES], ids=[row[0] for row in CAUSES])
def test_a_hidden_re_shows_its_cause_and_nothing_the_program_wrote(stderr: str, changes: dict, cause: str) -> None:
    message = re_message(stderr, **changes)
    assert shown_case(case(Verdict.RE, message), STUDENT).message == cause
    for_teacher = shown_case(case(Verdict.RE, message), TEACHER).message
    assert for_teacher == message and shown_case(case(Verdict.RE, message, sample=True), STUDENT).message == message


def test_a_multi_pass_re_keeps_its_pass() -> None:
    message = "pass 2: " + re_message(PYTHON_TRACE + f"KeyError: '{SECRET}'")
    assert shown_case(case(Verdict.RE, message), STUDENT).message == "pass 2: non-zero exit code: KeyError"


def test_an_re_message_of_another_shape_shows_no_cause() -> None:
    assert shown_case(case(Verdict.RE, f"{SECRET}: exit code 1"), STUDENT).message == ""


HIDDEN = [
    # (verdict, the message the judging wrote, what a student reads of a hidden test)
    (Verdict.AC, f"accepted on pass 2: the validator says {SECRET}", ""),
    (Verdict.AC, f"you printed {SECRET}", ""),
    (Verdict.WA, f"line 1: expected '3', got '{SECRET}'", HIDDEN_NOTICE),
    (Verdict.PE, f"got '{SECRET} '", HIDDEN_NOTICE),
    (Verdict.WA, f"partially correct (3 points): {SECRET}", HIDDEN_NOTICE),
    (Verdict.TLE, "CPU time over 1 s", "CPU time over 1 s"),
    (Verdict.MLE, "memory limit 256 MiB exceeded", "memory limit 256 MiB exceeded"),
    (Verdict.OLE, "output over 1 MiB", "output over 1 MiB"),
    (Verdict.JE, f"checker.py: check() raised ValueError: invalid literal for int(): '{SECRET}'", HIDDEN_JE_NOTICE),
    (Verdict.JE, "the judge's temporary folder /tmp/judge-x is full: 0 KiB free", HIDDEN_JE_NOTICE),
]


@pytest.mark.parametrize(("verdict", "message", "seen"), HIDDEN, ids=[f"{row[0].short}-{n}" for n, row in
                                                                        enumerate(HIDDEN)])
def test_a_hidden_test_shows_the_judges_words_only(verdict: Verdict, message: str, seen: str) -> None:
    hidden = case(verdict, message, diff=f"-3\n+{SECRET}")
    assert shown_case(hidden, STUDENT) == msgspec.structs.replace(hidden, message=seen, diff="")
    assert shown_case(hidden, TEACHER) == hidden


def test_every_verdict_has_its_hidden_message() -> None:
    """A verdict added later must say what a hidden test of it shows; nothing passes through by default."""
    assert set(HIDDEN_MESSAGES) == set(Verdict)


def test_a_sample_keeps_its_feedback_but_not_the_servers_paths() -> None:
    wrong = case(Verdict.WA, f"got '{SECRET}'", sample=True, diff=f"+{SECRET}")
    assert shown_case(wrong, STUDENT) == wrong
    failed = case(Verdict.JE, "the judge's temporary folder /tmp/judge-grade-x7/run is full: 12 KiB free where "
                  "a run may write 64 KiB more; free some space there or set TMPDIR to a folder with room", sample=True)
    assert shown_case(failed, STUDENT).message == (
        f"the judge's temporary folder {SERVER_PATH_SHOWN} is full: 12 KiB free where a run may write 64 KiB more; "
        "free some space there or set TMPDIR to a folder with room")
    assert shown_case(failed, TEACHER) == failed


PATHS = [
    ("the judge failed: No space left on device (/tmp/judge-grade-1/problem/t/tests/1.in)",
     f"the judge failed: No space left on device ({SERVER_PATH_SHOWN})"),
    ("/srv/class problems/t: an interactive problem needs an output validator program",
     f"{SERVER_PATH_SHOWN} problems/t: an interactive problem needs an output validator program"),
    ("the judge crashed (a bug; please report it): FileNotFoundError: [Errno 2] No such file: '/var/tmp/x.py'.",
     f"the judge crashed (a bug; please report it): FileNotFoundError: [Errno 2] No such file: "
     f"'{SERVER_PATH_SHOWN}'."),
    ("TMPDIR=/scratch/judge, at 12 KiB/s: 1/2 done", f"TMPDIR={SERVER_PATH_SHOWN}, at 12 KiB/s: 1/2 done"),
    ("java.lang.ArithmeticException: / by zero", "java.lang.ArithmeticException: / by zero"),
]


@pytest.mark.parametrize(("line", "seen"), PATHS)
def test_a_line_for_a_student_names_no_absolute_path(line: str, seen: str) -> None:
    assert without_server_paths(line) == seen


def test_a_submission_that_could_not_be_judged_names_no_path_to_a_student() -> None:
    line = "the judge failed: Permission denied (/tmp/judge-grade-abc/submission/Main.py)"
    assert shown_error(line, STUDENT) == f"the judge failed: Permission denied ({SERVER_PATH_SHOWN})"
    assert shown_error(line, TEACHER) == line


def test_a_policy_applied_again_changes_nothing() -> None:
    """`judge submit` applies the server's policy again to what the server sent."""
    cases = [case(verdict, message) for verdict, message, _ in HIDDEN]
    cases += [case(Verdict.RE, re_message(stderr, **changes)) for _, stderr, changes, _ in CAUSES]
    cases += [case(Verdict.JE, PATHS[0][0], sample=True)]
    result = SubmissionResult("t", "t.py", "Python 3", LIMITS, "bwrap", "cgroup", Verdict.RE, tuple(cases))
    for policy in POLICIES:
        once = shown(result, policy)
        assert shown(once.result, policy) == once and once.policy == policy


def test_each_standard_name_reads_as_itself() -> None:
    """A cause shown, read again, is the same cause: `judge submit` applies the server's policy again."""
    assert {name for name in STANDARD_ERRORS if error_class(name) != name} == set()


def test_a_hidden_tests_exit_status_memory_and_time_carry_no_byte_of_its_input() -> None:
    """A program that exits with a byte of its input as its status and holds another byte of it in MiB (the second
    review's leak: `exit(d[0])`, `bytearray(d[1] << 20)`) shows a student neither: an RE says only that the status
    was not zero, and every hidden test shows the submission's largest figures, one set per submission as BOJ does."""
    stolen = b"SE"  # the first bytes of a hidden input
    hidden = [
        msgspec.structs.replace(case(Verdict.RE, re_message("", exit_code=code)), name=str(n), cpu_seconds=cpu,
                            wall_seconds=cpu * 2, peak_mib=float(mib))
        for n, (code, mib, cpu) in enumerate(((stolen[0], stolen[1], 0.083), (49, 52, 0.069)), start=2)
    ]
    sample = msgspec.structs.replace(case(Verdict.RE, re_message("", exit_code=49), sample=True), peak_mib=35.0)
    result = SubmissionResult("t", "t.py", "Python 3", LIMITS, "bwrap", "cgroup", Verdict.RE, (sample, *hidden))

    student = shown(result, STUDENT).result.cases
    teacher = shown(result, TEACHER).result.cases

    assert [each.message for each in student[1:]] == ["non-zero exit code"] * 2
    assert {(each.cpu_seconds, each.wall_seconds, each.peak_mib) for each in student[1:]} == {(0.083, 0.166, 69.0)}
    assert student[0] == sample  # a sample is the student's own to see
    assert [each.peak_mib for each in teacher] == [35.0, 69.0, 52.0] and "exit code 83" in teacher[1].message
    assert shown(shown(result, STUDENT).result, STUDENT).result.cases == student  # a policy applied again: the same
