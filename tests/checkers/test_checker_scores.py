"""A checker's own score for a test (issue 12): a testlib checker's partial points (exit 7, `points <value>` first
on stderr) and a package validator's `score.txt`, carried as CaseResult.score into a scored problem's grade, and
from there into run, verify and grade. tests/packages/nearby (legacy, `type: scoring`, validator writing
score.txt) and tests/checkers/testlib_problem (exit 7 with 0.5 points) were written for these tests."""

from __future__ import annotations

import csv
import msgspec.structs
import json
import os
import shutil
from pathlib import Path

import pytest
from conftest import judge_cli

from judge.checkers.points import read_score_file, split_points
from judge.errors import JudgeFailure
from judge.judging.results import SubmissionResult
from judge.judging.submission import judge_submission
from judge.options import RunOptions
from judge.problems.load import load_problem_folder
from judge.problems.scoring import ScoreGroup
from judge.verdicts import Verdict

TESTS = Path(__file__).parents[1]
NEARBY = TESTS / "packages" / "nearby"
NEAR = Path(__file__).parent / "testlib_problem"
AC, WA, JE = Verdict.AC, Verdict.WA, Verdict.JE


def _submit(problem_root: Path, tmp_path: Path, body: str, scoring: ScoreGroup | None = None) -> SubmissionResult:
    source = tmp_path / "submission.py"
    source.write_text(body + "\n")
    problem = load_problem_folder(problem_root)
    if scoring is not None:
        problem = msgspec.structs.replace(problem, scoring=scoring)
    return judge_submission(problem, source, RunOptions(sandbox="none"))  # type: ignore[arg-type]


def test_a_checker_score_replaces_the_groups_accept_or_reject_score() -> None:
    group = ScoreGroup("g", ("a", "b", "c"), accept_score=10)
    verdicts = {"a": AC, "b": WA, "c": AC}
    assert group.grade(verdicts, {"a": 7.5, "b": 0.5}) == (WA, 18.0)
    assert group.grade(verdicts) == (WA, 20.0)
    assert msgspec.structs.replace(group, checker_scores=False).grade(verdicts, {"a": 7.5, "b": 0.5}) == (WA, 20.0)
    nested = ScoreGroup("", (group,))
    assert nested.grade(verdicts, {"c": 1}) == (WA, 11.0)


@pytest.mark.parametrize(("stderr", "expected"), [
    ("points 0.5 two away", (0.5, "two away")),   # testlib.h's own form: the word, the value, the message
    ("points 12", (12.0, "")),
    ("3 close", (3.0, "close")),                   # a checker printing the value first itself
])
def test_testlib_points_are_read_from_stderr(stderr: str, expected: tuple[float, str]) -> None:
    assert split_points(stderr, "checker.cpp") == expected


@pytest.mark.parametrize("stderr", ["", "points", "points half", "points -1", "points nan", "points inf"])
def test_exit_7_without_a_number_of_points_is_the_checkers_failure(stderr: str) -> None:
    with pytest.raises(JudgeFailure, match=r"^checker.cpp: exit 7 \(partial points\) needs 'points <value>'"):
        split_points(stderr, "checker.cpp")


def test_score_txt_holds_one_non_negative_number(tmp_path: Path) -> None:
    path = tmp_path / "score.txt"
    assert read_score_file(path, "v") is None
    path.write_text(" 7.5\n")
    assert read_score_file(path, "v") == 7.5
    for bad in ("lots", "-1", "1 2", "", "9" * 300):
        path.write_text(bad)
        with pytest.raises(JudgeFailure, match=r"^v: score.txt: must hold one non-negative number"):
            read_score_file(path, "v")
    path.unlink()
    os.symlink(tmp_path / "elsewhere", path)
    with pytest.raises(JudgeFailure, match=r"^v: score.txt: not a regular file"):
        read_score_file(path, "v")


def test_testlib_partial_points_are_the_tests_score_on_a_scored_problem(tmp_path: Path) -> None:
    """Two away earns the checker's 0.5 points on each test: absolute points (testlib's own range is 0 to 1e6,
    with no maximum to scale by), not half of the test's 10; the tests stay WA, as partial is not AC."""
    scoring = ScoreGroup("", ("sample1", "2"), accept_score=10)
    partial = _submit(NEAR, tmp_path, "print(int(input()) + 3)", scoring)
    assert [(case.verdict, case.score) for case in partial.cases] == [(WA, 0.5), (WA, 0.5)]
    assert (partial.verdict, partial.score, partial.max_score) == (WA, 1.0, 20.0)
    right = _submit(NEAR, tmp_path, "print(int(input()) + 1)", scoring)
    assert (right.verdict, right.score, [case.score for case in right.cases]) == (AC, 20.0, [None, None])


def test_testlib_partial_points_on_a_pass_fail_problem_are_a_wrong_answer(tmp_path: Path) -> None:
    result = _submit(NEAR, tmp_path, "print(int(input()) + 3)")
    assert (result.verdict, result.score) == (WA, None)
    assert result.cases[0].message == "partially correct (0.5 points): two away"


@pytest.mark.parametrize(("submission", "verdict", "score", "case_scores"), [
    ("accepted/double.py", AC, 30.0, [None, None, None, None]),
    ("partially_accepted/plus_one.py", AC, 27.0, [9.0, 9.0, 9.0, 9.0]),
    ("wrong_answer/plus_ten.py", WA, 0.0, [None, None, None, None]),
])
def test_a_validators_score_txt_is_the_tests_score(tmp_path: Path, submission: str, verdict: Verdict, score: float,
                                                   case_scores: list[float | None]) -> None:
    result = _submit(NEARBY, tmp_path, (NEARBY / "submissions" / submission).read_text())
    assert (result.verdict, result.score, result.max_score) == (verdict, score, 30.0)
    assert [case.score for case in result.cases] == case_scores
    assert SubmissionResult.from_dict(json.loads(json.dumps(result.to_dict()))) == result


def test_a_bad_score_txt_is_the_validators_failure(tmp_path: Path) -> None:
    root = tmp_path / "nearby"
    shutil.copytree(NEARBY, root)
    validator = root / "output_validators" / "near" / "validate.py"
    validator.write_text(validator.read_text().replace('score.write(f"{10 - distance}\\n")', 'score.write("lots")'))
    result = _submit(root, tmp_path, (NEARBY / "submissions/partially_accepted/plus_one.py").read_text())
    assert {case.verdict for case in result.cases} == {JE}
    message = result.cases[1].message
    assert "score.txt: must hold one non-negative number, got 'lots'" in message and "\n" not in message


def test_2023_samples_ignore_the_validators_score(tmp_path: Path) -> None:
    root = tmp_path / "pkg"
    for group in ("sample", "secret"):
        (root / "data" / group).mkdir(parents=True)
        (root / "data" / group / "1.in").write_text("1\n")
        (root / "data" / group / "1.ans").write_text("1\n")
    (root / "problem.yaml").write_text("problem_format_version: 2023-07-draft\ntype: scoring\nlimits: {time_limit: 1}\n")
    scoring = load_problem_folder(root).scoring
    assert scoring is not None
    sample, secret = scoring.items
    assert isinstance(sample, ScoreGroup) and isinstance(secret, ScoreGroup)
    assert (sample.checker_scores, secret.checker_scores) == (False, True)
    assert scoring.grade({"sample/1": AC, "secret/1": AC}, {"sample/1": 5.0, "secret/1": 3.0})[1] == 3.0


@pytest.mark.slow  # 5.2 s; score.txt to a test's score is tested above, the three views in test_scoring.py
def test_run_verify_and_grade_show_the_score_from_score_txt(tmp_path: Path) -> None:
    partial = NEARBY / "submissions" / "partially_accepted" / "plus_one.py"
    done = judge_cli("run", "--sandbox", "none", str(NEARBY), str(partial))
    assert done.returncode == 0 and "score 27/30" in done.stdout.splitlines()[-1], done.stdout + done.stderr
    done = judge_cli("verify", "--sandbox", "none", "--format", "json", str(NEARBY))
    assert done.returncode == 0, done.stdout + done.stderr
    rows = {Path(row["path"]).name: row for row in json.loads(done.stdout)["submissions"]}
    assert (rows["plus_one.py"]["got"], rows["plus_one.py"]["result"]["score"]) == ("AC", 27)
    assert [case["score"] for case in rows["plus_one.py"]["result"]["cases"]] == [9, 9, 9, 9]
    folder = tmp_path / "class" / "nearby"
    folder.mkdir(parents=True)
    shutil.copyfile(partial, folder / "kim.py")
    done = judge_cli("grade", str(NEARBY), str(tmp_path / "class"), "--out", str(tmp_path / "out"), "--sandbox", "none",
                 "-j", "1", "--layout", "by-problem")
    assert done.returncode == 0, done.stdout + done.stderr
    rows = {row["student"]: row for row in csv.DictReader((tmp_path / "out" / "grades.csv").open(encoding="utf-8-sig"))}
    assert (rows["kim"]["nearby"], rows["kim"]["score"]) == ("AC 27/30", "0.9")
