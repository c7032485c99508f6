"""The regression suite: every reference submission gets the verdict its folder names.

A submission whose header (first five lines) contains `[slow]` takes tens of seconds (the faithful N-Queen port
at N = 14, brute forces that run into a 32 s limit); those are marked slow and run in CI with `-m slow`.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from judge.errors import ToolchainMissing
from judge.judging.submission import judge_submission
from judge.options import RunOptions
from judge.problems.folder import load_problem
from judge.verdicts import Verdict

ROOT = Path(__file__).resolve().parents[2]
SLOW_TAG = "[slow]"


def reference_submissions() -> list[pytest.param]:
    params = []
    for path in sorted((ROOT / "submissions").glob("*/*/*")):
        header = path.read_text(encoding="utf-8", errors="replace").splitlines()[:5]
        marks = [pytest.mark.slow] if any(SLOW_TAG in line for line in header) else []
        params.append(pytest.param(path, id=str(path.relative_to(ROOT / "submissions")), marks=marks))
    return params


@pytest.mark.parametrize("path", reference_submissions())
def test_reference_submission_gets_its_folder_verdict(path: Path) -> None:
    problem = load_problem(ROOT / "problems" / path.parent.parent.name)
    expected = Verdict.from_folder(path.parent.name)
    try:
        result = judge_submission(problem, path, RunOptions(fail_fast=expected is not Verdict.AC))
    except ToolchainMissing as missing:
        pytest.skip(str(missing))
    failures = [f"{case.name}: {case.verdict.short} {case.message}" for case in result.cases if case.verdict is not Verdict.AC]
    assert result.verdict is expected, f"{result.verdict.short} instead of {expected.short}: {failures[:3]} {result.compile_message[:300]}"


def test_there_are_enough_reference_submissions() -> None:
    """The issue asks for at least five broken submissions per problem and accepted ones in Python, Java and C++."""
    for problem in ("2580", "9663"):
        folder = ROOT / "submissions" / problem
        broken = [path for path in folder.glob("*/*") if path.parent.name != "accepted"]
        accepted_suffixes = {path.suffix for path in (folder / "accepted").iterdir()}
        assert len(broken) >= 5, problem
        assert {".py", ".java", ".cpp"} <= accepted_suffixes, problem
