"""The search `judge serve` runs for a student's counterexample: generated inputs only, never a bundled test's input
(compared byte for byte), and a stop its caller can pull between trials."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import ROOT

from judge.options import RunOptions
from judge.problems.load import load_problem_folder
from judge.stress import StressRequest, stress

DOUBLE_REFERENCE = "print(2 * int(input()))\n"
WRONG_FROM_500 = "k = int(input())\nprint(2 * k if k < 500 else 0)\n"
STRATEGY = (
    "from hypothesis import strategies as st\n"
    "def inputs():\n    return st.integers(1, 10**6).map(lambda k: f'{k}\\n')\n"
)
GENERATOR = (  # seed s prints 500 + s: the first seeds print the tests' inputs
    "import sys\nprint(500 + int(sys.argv[sys.argv.index('--seed') + 1]))\n"
)


def request(problem: Path, source: Path, reference: Path, **extra: object) -> StressRequest:
    fields: dict = {
        "problem": load_problem_folder(problem),
        "source": source,
        "reference": reference,
        "submissions_dir": problem.parent,
        "budget_seconds": 60.0,
        "max_examples": 200,
        "seed": 4,
        "options": RunOptions(sandbox="none"),
        "generated_only": True,
        **extra,
    }
    return StressRequest(**fields)


@pytest.mark.slow  # 10-20 s of judging: CI runs it in the slow suite
def test_a_strategy_s_failure_is_never_a_test_s_input(make_problem, submission):
    problem = make_problem({"1": ("500\n", "1000\n"), "2": ("501\n", "1002\n")})
    (problem / "strategy.py").write_text(STRATEGY)
    reference, wrong = submission(DOUBLE_REFERENCE, "double.py"), submission(WRONG_FROM_500, "wrong.py")
    report = stress(request(problem, wrong, reference), lambda *_: None)
    assert report.failure is not None and report.from_test == ""
    assert report.failure.input == b"502\n"  # 500 and 501 fail too, but they are the tests' inputs
    assert report.failure.expected == b"1004\n" and report.failure.actual == b"0\n"


def test_a_generator_s_seeds_that_print_a_test_s_input_are_skipped(make_problem, submission):
    problem = make_problem({"1": ("500\n", "1000\n"), "2": ("501\n", "1002\n")})
    (problem / "generator.py").write_text(GENERATOR)
    reference, wrong = submission(DOUBLE_REFERENCE, "double.py"), submission(WRONG_FROM_500, "wrong.py")
    report = stress(request(problem, wrong, reference, seed=0), lambda *_: None)
    assert report.failure is not None and report.failure.input == b"502\n"


def test_without_generated_only_the_failing_test_comes_first(make_problem, submission):
    problem = make_problem({"1": ("500\n", "1000\n")})
    (problem / "strategy.py").write_text(STRATEGY)
    reference, wrong = submission(DOUBLE_REFERENCE, "double.py"), submission(WRONG_FROM_500, "wrong.py")
    report = stress(request(problem, wrong, reference, generated_only=False), lambda *_: None)
    assert report.from_test == "1" and report.failure is not None and report.failure.input == b"500\n"


def test_n_queen_has_no_input_that_is_not_a_test():
    """9663's tests hold every legal N: a counterexample would always be a test's input, so none is found."""
    problem = ROOT / "problems" / "9663"
    wrong = ROOT / "submissions/9663/wrong_answer/off_by_one_base_case.py"
    reference = ROOT / "submissions/9663/accepted/bitmask_mirror.py"
    report = stress(request(problem, wrong, reference), lambda *_: None)
    assert report.failure is None and report.judged == 0


def test_a_stop_ends_the_search_between_trials(make_problem, submission):
    problem = make_problem({"1": ("3\n", "6\n")})
    (problem / "strategy.py").write_text(STRATEGY)
    reference, wrong = submission(DOUBLE_REFERENCE, "double.py"), submission(WRONG_FROM_500, "wrong.py")
    asked: list[int] = []

    def stop() -> bool:
        asked.append(1)
        return True

    report = stress(request(problem, wrong, reference, stop=stop), lambda *_: None)
    assert asked and report.failure is None and report.judged == 0 and report.budget_spent
