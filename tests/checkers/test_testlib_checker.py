"""`checker: {testlib: checker.cpp}`: a checker speaking the testlib protocol (Codeforces Polygon), compiled with
the header beside it. tests/checkers/testlib_problem/checker.cpp was written for these tests; it reads its files with
its own checker.h, no third-party testlib.h."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from judge.batch.packing import ProblemPack
from judge.judging.submission import judge_submission
from judge.options import RunOptions
from judge.problems.load import load_problem_folder
from judge.verdicts import Verdict

NEAR = Path(__file__).parent / "testlib_problem"


def _judge(tmp_path: Path, body: str, root: Path = NEAR, sandbox: str = "none") -> list[tuple[Verdict, str]]:
    source = tmp_path / "near.py"
    source.write_text(body + "\n")
    result = judge_submission(load_problem_folder(root), source, RunOptions(sandbox=sandbox))  # type: ignore[arg-type]
    return [(case.verdict, case.message) for case in result.cases]


@pytest.mark.parametrize(("body", "verdict", "message"), [
    ("print(int(input()) + 1)", Verdict.AC, ""),                                    # exit 0
    ("print(int(input()) + 4)", Verdict.WA, "45 is too far from the answer"),      # exit 1
    ("print(int(input()) + 1, 0)", Verdict.PE, "one number only, please"),         # exit 2
    ("print(int(input()) + 3)", Verdict.WA, "partially correct (0.5 points): two away"),  # exit 7
])
def test_each_exit_code_is_its_verdict_with_the_message(tmp_path: Path, body: str, verdict: Verdict,
                                                        message: str) -> None:
    assert _judge(tmp_path, body)[0] == (verdict, message)


def test_the_checker_runs_in_the_sandbox_too(tmp_path: Path) -> None:
    assert _judge(tmp_path, "print(int(input()) + 1)", sandbox="auto") == [(Verdict.AC, ""), (Verdict.AC, "")]


def test_exit_3_is_the_checker_failing_so_judge_error(tmp_path: Path) -> None:
    root = tmp_path / "near"
    shutil.copytree(NEAR, root)
    (root / "tests" / "2.ans").write_text("1 2\n")
    cases = _judge(tmp_path, "print(int(input()) + 1)", root)
    assert cases[1] == (Verdict.JE, "checker.cpp: the checker failed: the answer file must hold one number")


def test_the_header_beside_the_checker_travels_with_the_problem() -> None:
    names = [name for name, _ in ProblemPack.of(load_problem_folder(NEAR)).files]
    assert names == ["checker.cpp", "checker.h", "problem.yaml", "tests/2.ans", "tests/2.in", "tests/sample1.ans",
                     "tests/sample1.in"]
