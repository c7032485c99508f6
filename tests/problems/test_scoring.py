"""Scored problems: the default grader's rules (judge/problems/scoring.py), a scored package's groups, partially
accepted reference submissions, and the score in run, verify and grade. tests/packages/evens (legacy, `type:
scoring`) was written for these tests: group1 is all or nothing (40), group2 gives 20 per test (60)."""

from __future__ import annotations

import csv
import json
import subprocess
import sys
from pathlib import Path

import pytest

from judge.problems.expectations import Expectation
from judge.problems.load import load_problem_folder
from judge.problems.scoring import ScoreGroup
from judge.verdicts import Verdict

EVENS = Path(__file__).parent.parent / "packages" / "evens"
AC, WA, TLE, RE = Verdict.AC, Verdict.WA, Verdict.TLE, Verdict.RE


def judge(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "judge", *args], capture_output=True, text=True, timeout=300,
                          cwd=cwd)


@pytest.mark.parametrize(("group", "verdicts", "expected"), [
    (ScoreGroup("g", ("a", "b", "c")), {"a": AC, "b": WA, "c": AC}, (WA, 2.0)),
    (ScoreGroup("g", ("a", "b"), accept_score=5, aggregation="min"), {"a": AC, "b": WA}, (WA, 0.0)),
    (ScoreGroup("g", ("a", "b"), accept_score=5, aggregation="max"), {"a": AC, "b": WA}, (WA, 5.0)),
    (ScoreGroup("g", ("a", "b"), accept_score=4, aggregation="avg"), {"a": AC, "b": WA}, (WA, 2.0)),
    (ScoreGroup("g", ("a", "b", "c")), {"a": WA, "b": TLE, "c": RE}, (RE, 0.0)),             # worst_error
    (ScoreGroup("g", ("a", "b", "c"), verdict_mode="first_error"), {"a": AC, "b": TLE, "c": RE}, (TLE, 1.0)),
    (ScoreGroup("g", ("a", "b"), verdict_mode="always_accept"), {"a": WA, "b": WA}, (AC, 0.0)),
    (ScoreGroup("g", ("a", "b"), accept_if_any=True), {"a": WA, "b": AC}, (AC, 1.0)),
    (ScoreGroup("g", ("a", "b"), reject_score=-1), {"a": WA, "b": AC}, (WA, 0.0)),
    (ScoreGroup("", (ScoreGroup("sample", ("s",)), ScoreGroup("secret", ("x",), accept_score=7)),
                ignore_sample=True), {"s": WA, "x": AC}, (AC, 7.0)),
    (ScoreGroup("g", ("a", "b")), {"a": AC}, (AC, 1.0)),                                 # b not judged: no score
])
def test_the_default_grader(group: ScoreGroup, verdicts: dict[str, Verdict], expected: tuple[Verdict, float]) -> None:
    assert group.grade(verdicts) == expected


def test_a_group_that_breaks_skips_its_remaining_tests_only() -> None:
    breaking = ScoreGroup("g1", ("a", "b", "c"), break_on_reject=True)
    root = ScoreGroup("", (breaking, ScoreGroup("g2", ("d", "e"))))
    assert root.skipped_by_break({"a": AC}) == set()
    assert root.skipped_by_break({"a": WA}) == {"b", "c"}
    assert root.skipped_by_break({"a": AC, "b": AC, "c": AC, "d": WA}) == set()


def test_a_scored_package_loads_its_groups() -> None:
    scoring = load_problem_folder(EVENS).scoring
    assert scoring is not None and scoring.ignore_sample and scoring.max_score() == 100
    sample, secret = scoring.items
    assert isinstance(sample, ScoreGroup) and sample.accept_score == 0
    assert isinstance(secret, ScoreGroup) and secret.accept_if_any and secret.verdict_mode == "first_error"
    group1, group2 = secret.items
    assert isinstance(group1, ScoreGroup) and (group1.aggregation, group1.accept_score, group1.break_on_reject) == (
        "min", 40, True)
    assert isinstance(group2, ScoreGroup) and (group2.aggregation, group2.accept_score) == ("sum", 20)


@pytest.mark.parametrize(("settings", "accept", "aggregation"), [
    ("scoring: {score: 30, aggregation: sum}\n", 10.0, "sum"),       # 2023-07-draft: spread over the 3 tests
    ("scoring: {score: 30, aggregation: min}\n", 30.0, "min"),
    ("max_score: 30\nscore_aggregation: sum\n", 10.0, "sum"),        # 2025-09
])
def test_2023_scoring_keys_map_onto_the_grader(tmp_path: Path, settings: str, accept: float, aggregation: str) -> None:
    root = tmp_path / "pkg"
    group = root / "data" / "secret" / "g"
    group.mkdir(parents=True)
    (root / "problem.yaml").write_text("problem_format_version: 2023-07-draft\ntype: scoring\nlimits: {time_limit: 1}\n")
    (group / "test_group.yaml").write_text(settings)
    for index in range(3):
        (group / f"{index}.in").write_text("1\n")
        (group / f"{index}.ans").write_text("1\n")
    scoring = load_problem_folder(root).scoring
    assert scoring is not None
    found = scoring.items[0].items[0]  # type: ignore[union-attr]
    assert (found.accept_score, found.aggregation) == (accept, aggregation)
    assert scoring.max_score() == 30


def test_partially_accepted_means_accepted_with_less_than_the_full_score() -> None:
    partial = Expectation("PAC", frozenset({AC}), partial=True)
    assert partial.met_by(AC, 60, 100)
    assert not partial.met_by(AC, 100, 100) and not partial.met_by(WA, 60, 100) and not partial.met_by(AC)
    assert not partial.accepted


def test_verify_checks_scores_and_run_shows_them() -> None:
    done = judge("verify", "--sandbox", "none", "--format", "json", str(EVENS))
    assert done.returncode == 0, done.stdout + done.stderr
    rows = {Path(row["path"]).name: row for row in json.loads(done.stdout)["submissions"]}
    assert (rows["small_only.py"]["got"], rows["small_only.py"]["result"]["score"]) == ("AC", 60)
    assert (rows["count.py"]["result"]["score"], rows["odds.py"]["result"]["score"]) == (100, 0)
    done = judge("run", "--sandbox", "none", str(EVENS), str(EVENS / "submissions/partially_accepted/small_only.py"))
    assert done.returncode == 0 and "score 60/100" in done.stdout.splitlines()[-1]


def test_grade_puts_the_score_in_the_gradebook(tmp_path: Path) -> None:
    folder = tmp_path / "class" / "evens"
    folder.mkdir(parents=True)
    (folder / "kim.py").write_text((EVENS / "submissions/partially_accepted/small_only.py").read_text())
    (folder / "lee.py").write_text((EVENS / "submissions/accepted/count.py").read_text())
    (folder / "park.py").write_text("print(\n")
    done = judge("grade", str(EVENS), str(tmp_path / "class"), "--out", str(tmp_path / "out"), "--sandbox", "none",
                 "-j", "1", "--layout", "by-problem")
    assert done.returncode == 0, done.stdout + done.stderr
    rows = {row["student"]: row for row in csv.DictReader((tmp_path / "out" / "grades.csv").open(encoding="utf-8-sig"))}
    assert (rows["kim"]["evens"], rows["kim"]["score"]) == ("AC 60/100", "0.6")
    assert (rows["lee"]["evens"], rows["lee"]["score"]) == ("AC 100/100", "1")
    assert (rows["park"]["evens"], rows["park"]["score"]) == ("CE 0/100", "0")
    assert {row["max"] for row in rows.values()} == {"1"}  # a scored problem counts at most 1, as any other
