"""`judge stress`: it finds a failing input, shrinks it, repeats it from the seed, and leaves nothing behind.

The bundled problems are used with fast references (C++ where it is installed) and small budgets; the broad run
over every bundled submission is benchmarks/stress_bundled.py and the slow test at the end.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from conftest import ROOT, assert_usage_error, judge_cli, needs

NQ = ROOT / "problems" / "9663"
SUDOKU = ROOT / "problems" / "2580"
NQ_REFERENCE = ROOT / "submissions/9663/accepted/bitmask_cpp.cpp"  # fast at N = 14, unlike the Python ones


def stress(problem: Path, source: Path, *extra: str | Path, cwd: Path | None = None) -> dict:
    done = judge_cli("stress", problem, source, "--format", "json", "-q", "--sandbox", "none",
                     "--submissions-dir", ROOT / "submissions", *extra, cwd=cwd)
    assert done.returncode in (0, 1), (done.returncode, done.stderr)
    assert "Traceback" not in done.stderr
    return json.loads(done.stdout)


@needs("g++")
def test_shrinks_n_queen_to_the_smallest_n_that_fails(tmp_path):
    report = stress(NQ, ROOT / "submissions/9663/wrong_answer/prints_n.py", "--reference", NQ_REFERENCE,
                    "--seed", "7", "--budget", "60", cwd=tmp_path)
    failure = report["failure"]
    assert failure["verdict"] == "WA"
    assert failure["input"] == "2\n" and report["size"] == "N=2"  # N=1 prints 1, which is right
    assert failure["expected"].strip() == "0" and failure["actual"].strip() == "2"
    assert report["shrinks"] and report["inputs_from"].endswith("strategy.py")
    assert list(tmp_path.iterdir()) == []  # no Hypothesis database or cache left in the user's folder


@needs("g++")
def test_the_seed_repeats_a_run(tmp_path):
    args = ("--reference", NQ_REFERENCE, "--seed", "12345", "--budget", "60", "--max-examples", "6")
    first = stress(NQ, ROOT / "submissions/9663/wrong_answer/prints_n.py", *args, cwd=tmp_path)
    second = stress(NQ, ROOT / "submissions/9663/wrong_answer/prints_n.py", *args, cwd=tmp_path)
    assert first["failure"]["input"] == second["failure"]["input"]
    assert first["judged"] == second["judged"]





@needs("g++")
def test_accepted_n_queen_has_no_failing_input(tmp_path):
    reference = ROOT / "submissions/9663/accepted/bitmask_cpp.cpp"
    report = stress(NQ, reference, "--reference", reference, "--seed", "3", "--max-examples", "5", cwd=tmp_path)
    assert report["failure"] is None and report["judged"] == 14  # the tests hold every N: each is judged once


@pytest.mark.slow
@needs("g++")
def test_accepted_n_queen_has_no_failing_input_for_any_n(tmp_path):
    reference = ROOT / "submissions/9663/accepted/bitmask_cpp.cpp"
    report = stress(NQ, reference, "--reference", reference, "--seed", "3", "--budget", "120", cwd=tmp_path)
    assert report["failure"] is None
    assert report["judged"] == 14  # every N from 1 to 14, each judged once


@needs("g++")
def test_sudoku_run_time_error_shrinks_to_a_full_board(tmp_path):
    report = stress(SUDOKU, ROOT / "submissions/2580/run_time_error/index_before_check.py", "--seed", "5",
                    "--budget", "60", "--max-examples", "20", cwd=tmp_path)
    assert report["failure"]["verdict"] == "RE"
    assert report["size"] == "0 blanks"  # blanks[len(blanks)] fails even with nothing to fill


@pytest.mark.slow
@needs("g++")
def test_sudoku_inputs_pass_the_validator_and_a_wrong_box_is_found(tmp_path):
    report = stress(SUDOKU, ROOT / "submissions/2580/wrong_answer/box_index_wrong.py", "--seed", "2",
                    "--budget", "60", "--max-examples", "60", cwd=tmp_path)
    assert report["failure"]["verdict"] == "WA"
    blanks = report["failure"]["input"].split().count("0")
    assert 1 <= blanks <= 3, report["failure"]["input"]


# ---------------------------------------------------------------- a problem of our own: generator fallback, errors

DOUBLE_REFERENCE = "print(2 * int(input()))\n"
HOSTILE_WRONG = (
    "k = int(input())\n"
    "print(2 * k if k < 500 else '\\x1b]52;c;ZWNobyBwd25lZA==\\x07\\x1b[2J')\n"
)
SEEDED_GENERATOR = (
    "import random, sys\n"
    "seed = int(sys.argv[sys.argv.index('--seed') + 1])\n"
    "print(random.Random(seed).randint(1, 1000))\n"
)


@pytest.fixture
def doubling(make_problem, submission):
    problem = make_problem({"1": ("3\n", "6\n")}, validator="validator.py")
    (problem / "validator.py").write_text("import sys\nsys.exit(0 if int(sys.stdin.read()) > 0 else 1)\n")
    return problem, submission(DOUBLE_REFERENCE, "double.py"), submission(HOSTILE_WRONG, "wrong.py")


def test_a_problem_without_strategy_uses_its_generator_and_says_so(doubling, tmp_path):
    problem, reference, wrong = doubling
    (problem / "generator.py").write_text(SEEDED_GENERATOR)
    done = judge_cli("stress", problem, wrong, "--reference", reference, "--seed", "1", "-q", "--sandbox", "none",
                     cwd=tmp_path)
    assert done.returncode == 1, done.stderr
    assert "not shrunk" in done.stdout and "generator.py" in done.stdout
    inputs_line = next(line for line in done.stdout.splitlines() if line.startswith("inputs:"))
    assert "))" not in inputs_line, inputs_line  # it once nested a parenthesis in another: "strategy.py))"
    assert "\x1b" not in done.stdout and "\x07" not in done.stdout  # what the program printed is inert
    assert "\\x1b]52" in done.stdout


def test_a_strategy_is_used_and_shrunk(doubling, tmp_path):
    problem, reference, wrong = doubling
    (problem / "strategy.py").write_text(
        "from hypothesis import strategies as st\n"
        "def inputs():\n    return st.integers(1, 10**6).map(lambda k: f'{k}\\n')\n")
    report = stress(problem, wrong, "--reference", reference, "--seed", "4", cwd=tmp_path)
    assert report["failure"]["input"] == "500\n"  # the smallest k the program gets wrong


def test_an_illegal_generated_input_is_the_strategy_s_fault(doubling, tmp_path):
    problem, reference, wrong = doubling
    (problem / "strategy.py").write_text(
        "from hypothesis import strategies as st\ndef inputs():\n    return st.just('0\\n')\n")
    done = judge_cli("stress", problem, wrong, "--reference", reference, "--seed", "1", "-q", "--sandbox", "none",
                     cwd=tmp_path)
    assert_usage_error(done, "strategy.py", "validator.py rejects")


def test_a_database_is_kept_only_where_asked(doubling, tmp_path):
    problem, reference, wrong = doubling  # its one test passes: the Hypothesis search runs, and keeps its examples
    (problem / "strategy.py").write_text(
        "from hypothesis import strategies as st\n"
        "def inputs():\n    return st.integers(1, 10**6).map(lambda k: f'{k}\\n')\n")
    where = tmp_path / "run"
    where.mkdir()
    kept = where / "examples"
    stress(problem, wrong, "--reference", reference, "--database", kept, "--max-examples", "6", cwd=where)
    assert [path.name for path in where.iterdir()] == ["examples"] and any(kept.rglob("*"))


def test_a_strategy_that_raises_is_one_line_naming_it(doubling, tmp_path):
    problem, reference, wrong = doubling
    (problem / "strategy.py").write_text(
        "from hypothesis import strategies as st\ndef inputs():\n    return st.integers(0, 9).map(lambda k: f'{1 // k}\\n')\n")
    done = judge_cli("stress", problem, wrong, "--reference", reference, "--seed", "1", "-q", "--sandbox", "none",
                     cwd=tmp_path)
    assert_usage_error(done, "strategy.py: the strategy failed: ZeroDivisionError")


def test_a_problem_without_strategy_or_generator_is_a_usage_error(doubling, tmp_path):
    problem, reference, wrong = doubling
    done = judge_cli("stress", problem, wrong, "--reference", reference, "-q", "--sandbox", "none", cwd=tmp_path)
    assert_usage_error(done, "no strategy.py or generator.py")


def test_a_submission_that_does_not_compile_is_reported_as_ce(doubling, submission, tmp_path):
    problem, reference, _ = doubling
    (problem / "generator.py").write_text(SEEDED_GENERATOR)
    broken = submission("print(\n", "broken.py")
    report = stress(problem, broken, "--reference", reference, "--seed", "1", cwd=tmp_path)
    assert report["failure"]["verdict"] == "CE"


@pytest.mark.slow
@needs("g++")
@pytest.mark.parametrize("source", sorted(
    [*ROOT.glob("submissions/*/wrong_answer/*"), *ROOT.glob("submissions/*/run_time_error/*.py")]
), ids=lambda path: f"{path.parent.parent.name}/{path.name}")
def test_every_bundled_broken_submission_is_caught(source, tmp_path):
    problem = ROOT / "problems" / source.parent.parent.name
    report = stress(problem, source, "--seed", "1", "--budget", "90", cwd=tmp_path)
    assert report["failure"] is not None


def test_grade_stress_puts_the_minimal_input_on_the_pair_s_page(tmp_path):
    (tmp_path / "class" / "kim").mkdir(parents=True)
    shutil.copy(ROOT / "submissions/9663/wrong_answer/prints_n.py", tmp_path / "class" / "kim" / "9663.py")
    shutil.copytree(NQ, tmp_path / "problems" / "9663")
    done = judge_cli("grade", tmp_path / "problems", tmp_path / "class", "--out", tmp_path / "out", "--stress",
                     "--stress-budget", "30", "--submissions-dir", ROOT / "submissions", "-j", "1", "-q",
                     "--sandbox", "none", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    page = (tmp_path / "out" / "report.html").read_text()
    assert "Smallest failing input found by judge stress (N=2, test 02): WA" in page
    assert "<pre>2\n</pre>" in page and "<pre>0\n</pre>" in page
