"""`judge stress` starts from the problem's own tests: a submission `judge run` rejects is always caught, at an input
no larger than the smallest failing test, made smaller by the strategy's `simplify` when it has one.

A problem of our own (double a number) keeps these fast; the bundled problems with the programs of
tests/stress/programs/ are measured in benchmarks/stress_vs_run.py and the slow tests at the end.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from conftest import ROOT, assert_usage_error, judge_cli, needs

PROGRAMS = Path(__file__).resolve().parent / "programs"
DOUBLE = "print(2 * int(input()))\n"
WRONG_FROM_500 = "k = int(input())\nprint(2 * k if k < 500 else 0)\n"
VALIDATOR = "import sys\nk = int(sys.stdin.read())\nsys.exit(0 if 0 < k <= 10**6 else 1)\n"
RANDOM_ONLY_SMALL = "from hypothesis import strategies as st\ndef inputs():\n    return st.integers(1, 5).map(lambda k: f'{k}\\n')\n"
HALVING = (
    "def magnitude(text):\n    return int(text)\n"
    "def simplify(text, answer):\n"
    "    k = int(text)\n"
    "    return [f'{k // 2}\\n', f'{k - 1}\\n']\n"
)


@pytest.fixture
def doubling(make_problem, submission):
    """A problem whose tests are 3 and 2000 (which WRONG_FROM_500 fails), its reference and the wrong program."""
    problem = make_problem({"1": ("3\n", "6\n"), "2": ("2000\n", "4000\n")}, validator="validator.py")
    (problem / "validator.py").write_text(VALIDATOR)
    return problem, submission(DOUBLE, "double.py"), submission(WRONG_FROM_500, "wrong.py")


def stress(problem: Path, source: Path, *extra: str | Path, cwd: Path) -> dict:
    done = judge_cli("stress", problem, source, "--format", "json", "-q", "--sandbox", "none", "--seed", "1", *extra,
                     cwd=cwd)
    assert done.returncode in (0, 1), (done.returncode, done.stderr)
    return json.loads(done.stdout)


def test_a_failing_test_is_found_although_random_inputs_miss_the_bug(doubling, tmp_path):
    problem, reference, wrong = doubling
    (problem / "strategy.py").write_text(RANDOM_ONLY_SMALL)  # never draws 500 or more
    report = stress(problem, wrong, "--reference", reference, cwd=tmp_path)
    assert report["failure"]["verdict"] == "WA"
    assert report["from_test"] == "2" and report["failure"]["input"] == "2000\n"
    assert not report["simplified"]  # no simplify(): the test as it is, with its own answer
    assert report["failure"]["expected"] == "4000\n"


def test_simplify_makes_the_failing_test_smaller_keeping_the_verdict(doubling, tmp_path):
    problem, reference, wrong = doubling
    (problem / "strategy.py").write_text(RANDOM_ONLY_SMALL + HALVING)
    report = stress(problem, wrong, "--reference", reference, cwd=tmp_path)
    assert report["from_test"] == "2" and report["simplified"]
    assert report["failure"]["input"] == "500\n"  # 2000 -> 1000 -> 999 ... -> 500: the smallest k that fails
    assert report["failure"]["expected"] == "1000\n"  # the reference's answer to the smaller input


def test_simplifications_the_validator_rejects_are_skipped(doubling, tmp_path):
    problem, reference, wrong = doubling
    (problem / "strategy.py").write_text(
        RANDOM_ONLY_SMALL + "def simplify(text, answer):\n    return ['0\\n', '-5\\n', '500\\n']\n")
    report = stress(problem, wrong, "--reference", reference, cwd=tmp_path)
    assert report["failure"]["input"] == "500\n" and report["simplified"]


def test_the_tests_are_tried_smallest_first(make_problem, submission, tmp_path):
    problem = make_problem({"a": ("9000\n", "18000\n"), "b": ("700\n", "1400\n"), "c": ("1\n", "2\n")})
    (problem / "strategy.py").write_text(RANDOM_ONLY_SMALL + "def magnitude(text):\n    return int(text)\n")
    report = stress(problem, submission(WRONG_FROM_500, "wrong.py"), "--reference", submission(DOUBLE, "d.py"),
                    cwd=tmp_path)
    assert report["from_test"] == "b" and report["judged"] == 2  # c (passes), then b: a is never run


def test_a_simplify_that_raises_is_one_line_naming_the_strategy(doubling, tmp_path):
    problem, reference, wrong = doubling
    (problem / "strategy.py").write_text(RANDOM_ONLY_SMALL + "def simplify(text, answer):\n    yield 1 // 0\n")
    done = judge_cli("stress", problem, wrong, "--reference", reference, "-q", "--sandbox", "none", cwd=tmp_path)
    assert_usage_error(done, "strategy.py: simplify() failed: ZeroDivisionError")


def test_a_simplify_going_round_in_circles_ends(doubling, tmp_path):
    problem, reference, wrong = doubling
    (problem / "strategy.py").write_text(
        RANDOM_ONLY_SMALL + "def simplify(text, answer):\n    return ['2000\\n', '1000\\n', text]\n")
    report = stress(problem, wrong, "--reference", reference, cwd=tmp_path)
    assert report["failure"]["input"] == "1000\n" and not report["budget_spent"]


def test_the_text_report_names_the_test_it_started_from(doubling, tmp_path):
    problem, reference, wrong = doubling
    (problem / "strategy.py").write_text(RANDOM_ONLY_SMALL + HALVING)
    done = judge_cli("stress", problem, wrong, "--reference", reference, "-q", "--sandbox", "none", "--seed", "1",
                     cwd=tmp_path)
    assert done.returncode == 1, done.stderr
    assert "from test 2 (5 characters), which fails, simplified" in done.stdout
    assert "expected output (the reference's):" in done.stdout


# ---------------------------------------------------------------- generator.py: one contract


WRITES_TESTS = (  # the guide's older generator: writes tests/ next to itself, whatever its arguments
    "from pathlib import Path\n"
    "folder = Path(__file__).resolve().parent / 'tests'\n"
    "folder.mkdir(exist_ok=True)\n"
    "(folder / '9.in').write_text('9\\n')\n"
)


def test_a_generator_that_writes_files_is_exit_2_naming_the_contract(doubling, tmp_path):
    problem, reference, _ = doubling
    (problem / "generator.py").write_text(WRITES_TESTS)
    done = judge_cli("stress", problem, reference, "--reference", reference, "-q", "--sandbox", "none",
                     "--seed", "4", cwd=tmp_path)
    # In a sandbox the write fails (a read-only file system); without one it lands in a scratch copy and nothing
    # is printed: either way, one line naming the generator and its contract.
    assert_usage_error(done, "generator.py --seed 4", "must print one input and write no file")


def test_the_worked_examples_generator_serves_stress(tmp_path):
    examples = ROOT / "examples"
    report = stress(examples / "problems/1000", examples / "submissions/1000/accepted/add.py",
                    "--submissions-dir", examples / "submissions", "--max-examples", "5", cwd=tmp_path)
    assert report["failure"] is None and report["judged"] >= 5  # the 8 tests, then generated inputs


# ---------------------------------------------------------------- the bundled problems, programs with search bugs


@pytest.mark.slow
@needs("g++")
@pytest.mark.parametrize("source", sorted(PROGRAMS.glob("*/*.py")), ids=lambda path: f"{path.parent.name}/{path.name}")
def test_every_search_bug_judge_run_finds_stress_finds_no_larger(source, tmp_path):
    problem = ROOT / "problems" / source.parent.name
    done = judge_cli("run", problem, source, "--format", "json", cwd=tmp_path)
    ran = json.loads(done.stdout)
    assert ran["verdict"] != "AC"
    report = stress(problem, source, "--submissions-dir", ROOT / "submissions", cwd=tmp_path)
    assert report["failure"] is not None and report["from_test"]
    failing = {case["name"] for case in ran["cases"] if case["verdict"] != "AC"}
    assert report["from_test"] in failing
