"""Scores from a package are finite numbers from 0 to MAX_SCORE, refused at loading otherwise (one line naming the
file and the key, exit 2), so every sum stays finite; and every JSON document the judge writes is strict JSON:
never a bare NaN or Infinity, which no JSON parser but Python's accepts."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from judge.checkers.points import parse_score
from judge.errors import SpecError
from judge.inert import json_document
from judge.problems.load import load_problem_folder
from judge.problems.scoring import MAX_SCORE

PACKAGES = Path(__file__).parent.parent / "packages"
NEARBY = PACKAGES / "nearby"
SUBMISSION = "print(sum(int(word) % 2 == 0 for word in input().split()))\n"


def strict_json(text: str) -> Any:
    """`text` parsed as JSON proper: Python's parser takes NaN, Infinity and -Infinity unless told not to."""
    def refuse(constant: str) -> None:
        raise ValueError(f"not JSON: {constant}")

    return json.loads(text, parse_constant=refuse)


def _scored_package(tmp_path: Path, settings: str, *, settings_file: str = "data/testdata.yaml",
                    spec: str = "type: scoring\nname: Evens\n") -> Path:
    root = tmp_path / "pkg"
    for group, text, answer in (("sample", "1 2\n", "1\n"), ("secret", "2 4 5\n", "2\n")):
        (root / "data" / group).mkdir(parents=True)
        (root / "data" / group / "1.in").write_text(text)
        (root / "data" / group / "1.ans").write_text(answer)
    (root / "problem.yaml").write_text(spec)
    (root / ".timelimit").write_text("2\n")
    (root / settings_file).parent.mkdir(parents=True, exist_ok=True)
    (root / settings_file).write_text(settings)
    (root / "submissions" / "accepted").mkdir(parents=True)
    (root / "submissions" / "accepted" / "a.py").write_text(SUBMISSION)
    return root


def _judge(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "judge", *args], capture_output=True, text=True, timeout=300)


BAD_SCORES = [
    ("accept_score: .nan\n", "accept_score"),
    ("accept_score: .inf\n", "accept_score"),
    ("accept_score: 1e308\n", "accept_score"),
    ("accept_score: -1\n", "accept_score"),
    ("reject_score: -.inf\n", "reject_score"),
    ("reject_score: .nan\n", "reject_score"),
    ("max_score: .nan\n", "max_score"),
    ("max_score: 1000000000000000000000000000000000000000000000000\n", "max_score"),
    ("scoring: {score: .nan}\n", "scoring"),
    ("scoring: {score: -5}\n", "scoring"),
]


@pytest.mark.parametrize(("settings", "key"), BAD_SCORES)
@pytest.mark.parametrize("settings_file", ["data/testdata.yaml", "data/secret/test_group.yaml"])
def test_a_score_that_is_not_a_finite_number_in_range_is_a_spec_error(tmp_path: Path, settings: str, key: str,
                                                                      settings_file: str) -> None:
    root = _scored_package(tmp_path, settings, settings_file=settings_file)
    with pytest.raises(SpecError) as raised:
        load_problem_folder(root)
    message = str(raised.value)
    assert message.startswith(f"{root / settings_file}: {key}: must be a number from 0 to 1000000"), message
    assert "\n" not in message


def test_scores_at_the_ends_of_the_range_load(tmp_path: Path) -> None:
    root = _scored_package(tmp_path, f"accept_score: {MAX_SCORE:.0f}\nreject_score: 0\n")
    assert load_problem_folder(root).scoring is not None


@pytest.mark.parametrize("text", ["nan", "inf", "-1", "1e308", "1000000.5"])
def test_a_checkers_score_is_in_the_same_range(text: str) -> None:
    """A validator's score.txt or a testlib checker's points out of range is the checker's failure, so no sum of
    scores can overflow to infinity."""
    assert parse_score(text) is None
    assert parse_score(f"{MAX_SCORE:.0f}") == MAX_SCORE


def test_run_with_a_nan_score_stops_at_loading_and_prints_no_json(tmp_path: Path) -> None:
    """`accept_score: .nan` made `judge run --format json` print a bare NaN; now the package is refused."""
    root = _scored_package(tmp_path, "accept_score: .nan\n")
    done = _judge("run", "--format", "json", str(root), str(root / "submissions" / "accepted" / "a.py"))
    assert done.returncode == 2, done.stderr
    assert done.stdout == "" and done.stderr.count("\n") == 1 and "accept_score: must be a number" in done.stderr


@pytest.mark.parametrize("value", [float("nan"), float("inf"), -float("inf")])
def test_the_judges_json_writer_never_writes_a_non_finite_number(value: float) -> None:
    """Every report, grades.json and stress document goes through json_document: a non-finite number there is a
    bug of the judge (ValueError, one line, exit 3), never a document no strict parser reads."""
    with pytest.raises(ValueError, match="not JSON compliant"):
        json_document({"score": value})


def test_run_and_verify_json_of_a_scored_package_are_strict_json() -> None:
    """A scored package whose validator gives partial scores (score.txt): both documents parse strictly."""
    run = _judge("run", "--format", "json", str(NEARBY), str(NEARBY / "submissions/partially_accepted/plus_one.py"))
    assert run.returncode == 0, run.stderr
    assert strict_json(run.stdout)["score"] == 27
    verify = _judge("verify", "--format", "json", str(NEARBY))
    assert verify.returncode == 0, verify.stderr
    assert strict_json(verify.stdout)["ok"] is True
