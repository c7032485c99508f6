"""What a teacher sees in the terminal and in report.html (issue 25, part 3): `judge run`'s rows and status line,
`judge grade`'s running pairs and --stress lines, and the gradebook page's markers, hints and stress finding."""

from __future__ import annotations

import io
import re
import time

import pytest
from rich.console import Console

from judge.batch.packing import ProblemPack
from judge.batch.status_bar import StatusBar
from judge.batch.tasks import SubmissionTask
from judge.class_folder import Unmatched
from judge.grading.gradebook import Gradebook, ProblemColumn
from judge.grading.session import Interrupted
from judge.grading.results_db import Fingerprint, StoredResult
from judge.judging.feedback import HIDDEN_NOTICE
from judge.judging.results import CaseResult, SubmissionHeader, SubmissionResult
from judge.languages.sources import SourceFiles
from judge.options import RunOptions
from judge.reporters.gradebook.page import render
from judge.reporters.stress.summary import StressLines
from judge.reporters.submission.terminal import TICK_SECONDS, TextView
from judge.runner.limits import Limits
from judge.stress import StressReport
from judge.stress.trials import Trial
from judge.verdicts import Verdict

LIMITS = Limits(1.0, 3.0, 256, 1)


def header(tests: int) -> SubmissionHeader:
    return SubmissionHeader("t", "kim/t.py", "Python 3", LIMITS, "none", "rlimit", "", tuple(str(n) for n in
                                                                                            range(1, tests + 1)))


# --- judge run ---------------------------------------------------------------------------------------------------


def test_the_hidden_test_notice_is_said_once() -> None:
    stream = io.StringIO()
    view = TextView(stream, feedback="boj")
    view.started(header(3))
    view.compiled("")
    for name in ("1", "2", "3"):
        view.judged(CaseResult(name, Verdict.WA, 0.01, 0.02, 3.0, message="line 1: expected '3', got '4'"))
    shown = stream.getvalue()
    assert shown.count(HIDDEN_NOTICE) == 1 and shown.count("hidden test") == 3


def test_fail_fast_says_where_it_stopped() -> None:
    stream = io.StringIO()
    view = TextView(stream, feedback="full")
    view.started(header(15))
    view.compiled("")
    cases = [CaseResult(str(n), Verdict.AC, 0.01, 0.02, 3.0) for n in range(1, 13)]
    cases.append(CaseResult("13", Verdict.WA, 0.01, 0.02, 3.0, message="wrong"))
    for case in cases:
        view.judged(case)
    view.finish(header(15).result(Verdict.WA, cases))
    shown = stream.getvalue()
    assert "stopped at test 13 of 15: 12 passed, 2 not run" in shown and "12/13" not in shown


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_the_status_line_counts_the_running_test_s_seconds_against_the_limits() -> None:
    stream = _Terminal()
    view = TextView(stream, feedback="full", live=True)
    view.started(header(2))
    view.compiled("")
    time.sleep(TICK_SECONDS * 3)  # the ticker redraws the line while test 1 runs
    view.judged(CaseResult("1", Verdict.AC, 0.01, 0.02, 3.0))
    view.finish(header(2).result(Verdict.AC, [CaseResult("1", Verdict.AC, 0.01, 0.02, 3.0)]))
    shown = stream.getvalue()
    assert re.search(r"running test 1 \(1 of 2\): \d+\.\d s, limit 1 s CPU, 3 s wall", shown), shown


def test_the_status_line_fits_a_narrow_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    """A status line wider than the terminal wraps, and the carriage return that erases it then erases only its
    last row: the line is cut to the terminal's width instead."""
    monkeypatch.setenv("COLUMNS", "30")
    stream = _Terminal()  # no file descriptor: its width is COLUMNS
    view = TextView(stream, feedback="full", live=True)
    view.started(SubmissionHeader("t", "kim/t.py", "Python 3", LIMITS, "none", "rlimit", "",
                                  ("a-test-with-a-name-far-longer-than-thirty-columns", "2")))
    view.compiled("")
    time.sleep(TICK_SECONDS * 2)
    view.judged(CaseResult("a-test-with-a-name-far-longer-than-thirty-columns", Verdict.AC, 0.01, 0.02, 3.0))
    parts = (ANSI.sub("", part) for part in re.split(r"\r\x1b\[K|\n", stream.getvalue()))
    status = [part for part in parts if "running" in part]
    assert all(len(line) <= 29 for line in status), status
    assert "running test a-test-with-a-n…" in status, status


# --- judge grade: the bar and the --stress lines -----------------------------------------------------------------


def test_the_bar_names_the_running_pairs_with_their_time() -> None:
    output = io.StringIO()
    console = Console(file=output, force_terminal=True, width=200)
    task = SubmissionTask("lee\x1b[2J", "lee/2580.py", SourceFiles("2580.py", b""),
                     ProblemPack("2580", (), 44), RunOptions())
    with StatusBar(2, enabled=True, console=console, time_limits={"2580": 1.0}) as bar:
        bar.started(task)
        time.sleep(0.3)  # rich redraws from its own thread
        bar._display.refresh()  # draw now rather than wait for the next redraw
        drawn = output.getvalue()
        bar.advance(Verdict.AC, task.pair)
        bar._display.refresh()
    assert "running: lee\\x1b[2J/2580 0 s (44 tests, 1 s limit each)" in drawn
    assert "\x1b[2J" not in drawn.replace("\\x1b[2J", "")  # the student's name is inert
    assert "-:--:--" in drawn  # one pair left and it is running: no estimate from the others' rate


ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")


def test_the_running_pairs_fit_an_80_column_terminal_cutting_names_not_times() -> None:
    output = io.StringIO()
    console = Console(file=output, force_terminal=True, width=80)
    tasks = [SubmissionTask(f"student-with-a-rather-long-name-{n}", f"s{n}/2580.py", SourceFiles("2580.py", b""),
                            ProblemPack("2580", (), 44), RunOptions()) for n in (1, 2)]
    with StatusBar(3, enabled=True, console=console, time_limits={"2580": 1.0}) as bar:
        for task in tasks:
            bar.started(task)
        bar._display.refresh()
        drawn = ANSI.sub("", output.getvalue())
    lines = [line for line in re.split(r"[\r\n]", drawn) if line.strip()]
    assert all(len(line) <= 80 for line in lines), lines
    running = [line for line in lines if line.startswith("running: ")]
    assert running and all("… 0 s (44 tests, 1 s limit each)" in line for line in running), lines


def test_ctrl_c_after_force_counts_this_run_and_does_not_say_the_same_command() -> None:
    forced = str(Interrupted(2, 12, 40, forced=True))
    assert "12 of 40 pairs were judged again" in forced and "same command" not in forced
    assert "run the command again without --force to judge the other 28" in forced
    assert "run the same command again" in str(Interrupted(2, 12, 40, forced=False))


def stress_report(failure: Trial | None, **fields: object) -> StressReport:
    base: dict[str, object] = {
        "problem_id": "9663", "submission": "lee/9663.py", "reference": "ref.cpp", "inputs_from": "strategy.py",
        "shrinks": True, "simplifies": True, "seed": 0, "judged": 3, "seconds": 1.5, "budget_spent": False,
        "failure": failure, "size": "N=2"}
    return StressReport(**{**base, **fields})


def test_a_stress_line_per_finding_and_one_counting_the_pairs_that_found_nothing() -> None:
    shown: list[str] = []
    lines = StressLines(shown.append)
    found = stress_report(Trial(b"2\n", Verdict.WA, "expected 0", b"0\n", b"2\n", 0.01), from_test="02",
                          from_test_size="N=2")
    lines.searched(("lee", "9663"), found)
    lines.searched(("park", "9663"), stress_report(None, size=""))
    lines.searched(("choi", "9663"), stress_report(None, size=""))
    lines.searched(("kim", "9663"), "the judge failed: No space left on device")
    lines.searched(("han", "9663"), stress_report(Trial(b"1 " * 40 + b"\n3\n", Verdict.WA, "", b"", b"", 0.0),
                                                  size="2 lines", seed=0))
    lines.unsearchable("1330", "problems/1330: no strategy.py or generator.py", 1)
    lines.finish()
    assert shown == [
        'stress: lee/9663: WA at N=2 ("2"), from test 02',
        "stress: kim/9663: the judge failed: No space left on device",
        f'stress: han/9663: WA at 2 lines ("{"1 " * 20}" …), seed 0',  # the first line cut, the rest marked
        "stress: 1330 (1 WA pair not searched): problems/1330: no strategy.py or generator.py",
        "stress: 2 pairs searched, nothing found",
    ]


def test_stress_with_no_wa_pair_says_so() -> None:
    shown: list[str] = []
    StressLines(shown.append).finish()
    assert shown == ["stress: no WA pair to search"]


# --- report.html -------------------------------------------------------------------------------------------------


def stored(student: str, report: SubmissionResult, path: str) -> StoredResult:
    return StoredResult(student, "t", Fingerprint(path, "0" * 64, "1" * 64, "0"), report.verdict,
                        report.passed, len(report.cases), report, "", "here", "2024-01-01T00:00:00")


def test_the_page_marks_missing_and_duplicate_files_and_shows_the_hint_and_stress_first() -> None:
    case = CaseResult("1", Verdict.WA, 0.01, 0.02, 3.0, message="wrong", diff="-3\n+4\n")
    wrong = SubmissionResult("t", "kim/t.py", "Python 3", LIMITS, "none", "rlimit", Verdict.WA, (case,))
    compile_error = SubmissionResult("t", "lee/t.java", "Java", LIMITS, "none", "rlimit", Verdict.CE,
                                     compile_message="class Solution is public",
                                     hints=("hint: rename 'public class Solution' to 'public class Main'",))
    gradebook = Gradebook(
        problems=(ProblemColumn("t", "T", 1.0, 1),), students=("kim", "lee", "park"),
        results={("kim", "t"): stored("kim", wrong, "kim/t.py"), ("lee", "t"): stored("lee", compile_error,
                                                                                       "lee/t.java")},
        unmatched=(Unmatched("kim/t.cpp", "ambiguous: kim has 2 files for problem t; graded kim/t.py"),),
        layout="by-student", partial=False, generated_at="2024-01-01T00:00:00+00:00",
        stress={("kim", "t"): stress_report(Trial(b"7\n", Verdict.WA, "wrong", b"14\n", b"0\n", 0.01),
                                            size="1 characters", from_test="1", from_test_size="3 characters",
                                            simplified=True)},
    )
    page = render(gradebook)
    assert 'title="nothing was submitted for this problem">missing</td>' in page  # park
    assert 'title="not graded: kim/t.cpp">+1 file</small>' in page
    assert "hint: rename &#x27;public class Solution&#x27; to &#x27;public class Main&#x27;" in page
    kim = page[page.index('<strong>kim</strong>'):]
    assert kim.index("Smallest failing input found by judge stress") < kim.index('<table class="tests">')
    assert "(1 characters, from test 1, made smaller): WA" in page
