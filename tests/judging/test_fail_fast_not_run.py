"""A judging that stops at the first failure (`fail_fast`, as `judge serve` always judges) names the tests it did
not run, so a stored result, read back alone, still says where it stopped and out of how many (issue 41)."""

from __future__ import annotations

import io
import json
import time
from pathlib import Path

import psutil
import pytest
from conftest import write_problem

from judge.judging.feedback import shown
from judge.judging.results import SubmissionResult
from judge.judging.submission import judge_submission
from judge.options import RunOptions
from judge.problems.load import load_problem_folder
from judge.reporters.submission.terminal import report
from judge.runner.sandbox import bwrap_problem
from judge.verdicts import Verdict

TESTS = {"sample1": ("1 2\n", "3\n"), "2": ("2 2\n", "4\n"), "3": ("5 7\n", "12\n"), "4": ("3 3\n", "6\n")}
needs_bwrap = pytest.mark.skipif(bwrap_problem() is not None, reason=f"bwrap unusable: {bwrap_problem()}")
WRONG_ON_EQUAL = "a, b = map(int, input().split())\nprint(a + b if a != b else 0)\n"


def _judged(tmp_path: Path, *, fail_fast: bool) -> SubmissionResult:
    source = tmp_path / "a.py"
    source.write_text(WRONG_ON_EQUAL, encoding="utf-8")
    problem = load_problem_folder(write_problem(tmp_path / "sum", TESTS, id="sum"))
    return judge_submission(problem, source, RunOptions(sandbox="none", fail_fast=fail_fast))


def test_a_stop_names_the_tests_after_it_and_a_stored_result_reports_where_it_stopped(tmp_path: Path) -> None:
    result = _judged(tmp_path, fail_fast=True)
    assert result.verdict is Verdict.WA
    assert [case.name for case in result.cases] == ["sample1", "2"] and result.not_run == ("3", "4")

    stored = SubmissionResult.from_dict(json.loads(json.dumps(result.to_dict())))
    assert stored == result and stored.header().tests == ("sample1", "2", "3", "4")
    printed = io.StringIO()
    report(shown(stored, "full"), printed)
    assert "stopped at test 2 of 4: 1 passed, 2 not run" in printed.getvalue()


def test_without_fail_fast_every_test_runs_and_none_is_named_not_run(tmp_path: Path) -> None:
    result = _judged(tmp_path, fail_fast=False)
    assert [case.verdict for case in result.cases] == [Verdict.AC, Verdict.WA, Verdict.AC, Verdict.WA]
    assert result.not_run == ()


SLEEPS_ON_FIVE = "import time\na, b = map(int, input().split())\ntime.sleep(60 if a == 5 else 0)\nprint(a + b if a != b else 0)\n"


@pytest.mark.parametrize("sandbox", ["none", pytest.param("bwrap", marks=needs_bwrap)])
def test_the_test_after_a_stop_begun_ahead_is_stopped_and_leaves_nothing(tmp_path: Path, sandbox: str) -> None:
    """Test 3 is begun while test 2 runs (judge/judging/run_ahead.py) and sleeps for a minute; test 2 fails, so
    the judging stops there and test 3 is dropped: killed, or never started, and nothing of it is left."""
    source = tmp_path / "a.py"
    source.write_text(SLEEPS_ON_FIVE, encoding="utf-8")
    problem = load_problem_folder(write_problem(tmp_path / "sum", TESTS, id="sum"))
    begun = time.time() - 1  # process start times are counted in clock ticks
    result = judge_submission(problem, source, RunOptions(sandbox=sandbox, fail_fast=True))
    assert [case.verdict for case in result.cases] == [Verdict.AC, Verdict.WA] and result.not_run == ("3", "4")
    left = [found for found in psutil.process_iter(["cmdline", "create_time"])
            if found.info["create_time"] >= begun and "Main.py" in " ".join(found.info["cmdline"] or ())]
    assert not left, left  # the judge names every Python submission Main.py
