"""No view shows a student a hidden test (issue 39, item 2): `judge run --feedback boj` in every format, on a
program that copies each test's input to its stdout, its stderr, an exception's name and its checker's words
(tests/hidden_leak.py). The teacher's `full` keeps everything, and every gradebook view goes through the policy
it is given. `judge serve`'s views: tests/serve/test_serve_hidden_feedback.py."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import judge_cli
from hidden_leak import (
    HIDDEN_MODES,
    HIDDEN_VERDICTS,
    LEAKING_PROGRAM,
    PROBLEM_ID,
    SAMPLE_SECRET,
    leaked,
    secret,
    write_leak_problem,
)

from judge.class_folder import Unmatched
from judge.grading.gradebook import Gradebook, ProblemColumn
from judge.grading.results_db import Fingerprint, StoredResult
from judge.judging.feedback import STUDENT
from judge.judging.results import SubmissionResult
from judge.reporters import gradebook as gradebook_views
from judge.reporters.gradebook import GRADEBOOK_VIEWS, write_views

QUOTED_MODES = ("raise", "exit", "wrong", "quoted", "checker")
"""The hidden tests whose secret the full feedback shows (the limits' messages are the judge's own)."""


@pytest.fixture(scope="module")
def leak(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder with problems/leak and the leaking program, leak.py."""
    root = tmp_path_factory.mktemp("leak")
    write_leak_problem(root / "problems")
    (root / "leak.py").write_text(LEAKING_PROGRAM, encoding="utf-8")
    return root


@pytest.fixture(scope="module")
def full_json(leak: Path) -> dict:
    done = judge_cli("run", leak / "problems" / PROBLEM_ID, leak / "leak.py", "--format", "json", "--feedback", "full")
    assert done.returncode == 3, done.stderr  # JE on the checker's test
    return json.loads(done.stdout)


def test_the_program_does_print_every_hidden_input_where_the_teacher_reads(full_json: dict) -> None:
    """The attack works: without the student's policy, each hidden test's secret is in the report."""
    assert [case["verdict"] for case in full_json["cases"]] == ["RE", *HIDDEN_VERDICTS]
    document = json.dumps(full_json)
    assert all(secret(mode) in document for mode in QUOTED_MODES), document


@pytest.mark.parametrize("report_format", ["text", "json", "junit"])
def test_judge_run_shows_a_student_no_hidden_input_in_any_format(leak: Path, report_format: str) -> None:
    done = judge_cli("run", leak / "problems" / PROBLEM_ID, leak / "leak.py", "--format", report_format,
                     "--feedback", "boj")
    assert done.returncode == 3, done.stderr
    assert leaked(done.stdout + done.stderr) == [], done.stdout
    assert SAMPLE_SECRET in done.stdout  # the sample in full: a leak would show here
    assert "non-zero exit code: ValueError" in done.stdout  # the faked traceback's cause, a standard name


def test_a_students_json_gives_each_hidden_test_the_judges_words(leak: Path) -> None:
    done = judge_cli("run", leak / "problems" / PROBLEM_ID, leak / "leak.py", "--json")  # boj: the default
    cases = json.loads(done.stdout)["cases"]
    assert [case["verdict"] for case in cases] == ["RE", *HIDDEN_VERDICTS]
    messages = dict(zip(HIDDEN_MODES, (case["message"] for case in cases[1:]), strict=True))
    assert messages["raise"] == "non-zero exit code" and messages["exit"] == "non-zero exit code: ValueError"
    assert messages["quoted"] == "" and messages["checker"].startswith("hidden test: the judge failed")
    assert all(case["diff"] == "" for case in cases[1:])


def _gradebook(result: SubmissionResult, error: str) -> Gradebook:
    stored = StoredResult("kim", PROBLEM_ID, Fingerprint("kim/leak.py", "0" * 64, "1" * 64, "0"), result.verdict,
                          result.passed, len(result.cases), result, error, "worker", "2024-01-01T00:00:00")
    return Gradebook(problems=(ProblemColumn(PROBLEM_ID, "Leak", 0.5, len(result.cases)),), students=("kim",),
                     results={("kim", PROBLEM_ID): stored}, unmatched=(Unmatched("x.py", "no problem"),),
                     layout="by-student", partial=False, generated_at="2024-01-01T00:00:00+00:00")


def test_every_gradebook_view_goes_through_the_gradebooks_policy(full_json: dict, tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """The gradebook is the teacher's (`full`: everything); a view that skipped the policy would show the
    hidden tests even under the student's, which this makes it use."""
    result = SubmissionResult.from_dict(full_json)
    judge_failed = "the judge failed: No space left on device (/tmp/judge-grade-q7/problem/leak/tests/5.ans)"
    (tmp_path / "teacher").mkdir()
    (tmp_path / "student").mkdir()
    write_views(_gradebook(result, judge_failed), tmp_path / "teacher")
    monkeypatch.setattr(gradebook_views, "GRADEBOOK_POLICY", STUDENT)
    write_views(_gradebook(result, judge_failed), tmp_path / "student")
    for view in GRADEBOOK_VIEWS.values():
        if view.file_name in ("grades.csv", "canvas.csv", "moodle.csv"):  # verdicts, points and ids only
            continue
        teacher = (tmp_path / "teacher" / view.file_name).read_text(encoding="utf-8")
        student = (tmp_path / "student" / view.file_name).read_text(encoding="utf-8")
        assert secret("raise") in teacher and "/tmp/judge-grade-q7" in teacher, view.file_name
        assert leaked(student) == [] and "/tmp/judge-grade-q7" not in student, view.file_name
        assert SAMPLE_SECRET in student, view.file_name
