"""How a verdict's time was measured reaches every view of a submission (issue 43): a test measured again near its
limit shows its band and every run's CPU time, in text, JSON and JUnit, for the teacher; for a student (BOJ) a
hidden test keeps only the figures every hidden test shares, so its runs do not tell which test was slow."""

from __future__ import annotations

import io
import json
from xml.etree import ElementTree

import msgspec.structs
import pytest

from judge.judging.feedback import shown
from judge.judging.results import CaseResult, SubmissionResult
from judge.reporters.submission import REPORTERS
from judge.runner.limits import Limits
from judge.verdicts import Verdict

NEAR = CaseResult("2", Verdict.AC, 0.98, 1.0, 3.0, cpu_runs=(1.03, 0.98, 1.01), near_limit_band=0.05)
NOTE = "near the limit (±5%); runs: 1.030, 0.980, 1.010 s"


def result(near_is_sample: bool = True) -> SubmissionResult:
    near = msgspec.structs.replace(NEAR, is_sample=near_is_sample)
    cases = (CaseResult("1", Verdict.AC, 0.1, 0.1, 3.0, is_sample=True), near)
    return SubmissionResult("t", "kim/t.py", "Python 3", Limits(1.0, 3.0, 256, 1), "none", "rlimit", Verdict.AC, cases)


@pytest.mark.parametrize("name", ["text", "json", "junit"])
def test_every_view_shows_the_runs_and_the_band(name):
    stream = io.StringIO()
    REPORTERS[name](shown(result(), "full"), stream)
    text = stream.getvalue()
    if name == "json":
        case = json.loads(text)["cases"][1]
        assert (case["cpu_runs"], case["near_limit_band"]) == ([1.03, 0.98, 1.01], 0.05)
    elif name == "junit":
        found = ElementTree.fromstring(text).find("./testcase[@name='2']/properties/property[@name='timing']")
        assert found is not None and found.get("value") == NOTE
    else:
        assert NOTE in text


def test_a_far_test_has_no_note():
    assert CaseResult("1", Verdict.AC, 0.1, 0.1, 3.0).timing_note == ""


def test_the_json_record_round_trips():
    again = SubmissionResult.from_dict(json.loads(json.dumps(result().to_dict())))
    assert again.cases[1] == msgspec.structs.replace(NEAR, is_sample=True)


def test_a_student_does_not_see_a_hidden_tests_runs():
    seen = shown(result(near_is_sample=False), "boj").result
    assert (seen.cases[1].cpu_runs, seen.cases[1].near_limit_band) == ((), None)
