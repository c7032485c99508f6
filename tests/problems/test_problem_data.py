"""The data of problems 2580 (Sudoku) and 9663 (N-Queen): specs load, inputs validate, answers are right,
the 2580 validator's two call counts are the searches they claim to be, and the 2580 generator reproduces
its tests byte for byte."""

from __future__ import annotations

import importlib.util
import re
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

from judge.problems.folder import load_problem
from judge.verdicts import Verdict

PROBLEMS = Path(__file__).resolve().parents[2] / "problems"
SUDOKU = PROBLEMS / "2580"
NQUEEN = PROBLEMS / "9663"
KEEPS_SEARCHING = PROBLEMS.parent / "submissions" / "2580" / "accepted" / "flags_keeps_searching.py"

# OEIS A000170: ways to place n non-attacking queens on an n x n board, n = 1..14; typed in, not computed.
A000170 = [1, 0, 0, 2, 10, 4, 40, 92, 352, 724, 2680, 14200, 73712, 365596]

SUDOKU_ANSWER_LAYOUT = re.compile(rb"(?:[1-9](?: [1-9]){8}\n){9}")


def load_module(path: Path, name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # a dataclass looks its module up there
    spec.loader.exec_module(module)
    return module


sudoku_validator = load_module(SUDOKU / "validator.py", "problem_2580_validator")
sudoku_checker = load_module(SUDOKU / "checker.py", "problem_2580_checker")
nqueen_validator = load_module(NQUEEN / "validator.py", "problem_9663_validator")

SUDOKU_TESTS = load_problem(SUDOKU).tests
NQUEEN_TESTS = load_problem(NQUEEN).tests


def run_validator(problem: Path, data: bytes) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [sys.executable, str(problem / "validator.py")], input=data, capture_output=True, timeout=60, check=False
    )


# --- specs ---------------------------------------------------------------------------------------------------------


def test_sudoku_spec() -> None:
    problem = load_problem(SUDOKU)
    spec = problem.spec
    assert (spec.id, spec.title, spec.source) == ("2580", "Sudoku", "https://www.acmicpc.net/problem/2580")
    assert (spec.time_limit, spec.memory_limit, spec.output_limit) == (1, 256, 1)
    assert spec.checker.name == "checker.py" and problem.custom_checker_path.is_file()
    assert spec.validator == "validator.py"
    names = [case.name for case in problem.tests]
    assert "sample1" in names and len(names) >= 41
    assert (SUDOKU / "statement.md").is_file() and (SUDOKU / "generator.py").is_file()


def test_nqueen_spec() -> None:
    problem = load_problem(NQUEEN)
    spec = problem.spec
    assert (spec.id, spec.title, spec.source) == ("9663", "N-Queen", "https://www.acmicpc.net/problem/9663")
    assert (spec.time_limit, spec.memory_limit) == (10, 128)
    assert spec.checker.name == "boj" and spec.validator == "validator.py"
    assert sorted(case.name for case in problem.tests) == sorted(["sample1", *(f"{n:02d}" for n in range(1, 15))])
    assert (NQUEEN / "statement.md").is_file()


# --- every input passes its validator, run the way a problem setter runs it ---------------------------------------


@pytest.mark.parametrize(
    "case", SUDOKU_TESTS + NQUEEN_TESTS, ids=lambda case: f"{case.input_path.parts[-3]}/{case.name}"
)
def test_every_input_passes_its_validator(case) -> None:
    problem = case.input_path.parent.parent
    result = run_validator(problem, case.input_path.read_bytes())
    assert result.returncode == 0, result.stderr.decode()
    assert result.stderr == b""
    if problem == NQUEEN:
        assert re.fullmatch(rb"n=\d+\n", result.stdout)
        return
    counts = re.fullmatch(rb"calls=(\d+) full_calls=(\d+)\n", result.stdout)
    assert counts, result.stdout
    first, full = int(counts[1]), int(counts[2])
    assert 1 <= first <= sudoku_validator.CALL_LIMIT
    assert first <= full <= sudoku_validator.FULL_SEARCH_CALL_LIMIT


# --- answers -------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("case", SUDOKU_TESTS, ids=lambda case: case.name)
def test_every_sudoku_answer_is_accepted_by_the_checker(case) -> None:
    answer = case.answer_path.read_bytes()
    assert SUDOKU_ANSWER_LAYOUT.fullmatch(answer), "answers are 9 lines of 9 digits joined by single spaces"
    result = sudoku_checker.check(input=case.input_path.read_bytes(), output=answer, answer=answer)
    assert result.verdict is Verdict.AC, result.message


def test_sudoku_inputs_are_all_different() -> None:
    inputs = [case.input_path.read_bytes() for case in SUDOKU_TESTS]
    assert len(set(inputs)) == len(inputs)


def test_sudoku_sample_is_boj_sample() -> None:
    sample = (SUDOKU / "tests" / "sample1.in").read_bytes()
    assert sample.split(b"\n")[0] == b"0 3 5 4 6 9 2 7 8"
    assert (SUDOKU / "tests" / "sample1.ans").read_bytes().split(b"\n")[0] == b"1 3 5 4 6 9 2 7 8"


def test_hard_sudoku_tests_reach_near_the_call_bound() -> None:
    calls = [sudoku_validator.backtrack(read_grid(case.input_path))[0] for case in SUDOKU_TESTS]
    assert max(calls) <= sudoku_validator.CALL_LIMIT
    assert max(calls) >= 95_000
    assert sum(count > 50_000 for count in calls) >= 5


MANY_SOLUTIONS = [
    "09-blank-top-four-rows",
    "10-blank-bottom-four-rows",
    "11-blank-corner-and-centre-boxes",
    "12-blank-bottom-four-rows-and-top-right-box",
    "13-sparse-scattered-clues",
    "14-two-bands-given",
    "15-two-solutions-rectangle",
    "16-half-blank-many-solutions",
]


@pytest.mark.parametrize("name", MANY_SOLUTIONS)
def test_a_program_printing_every_solution_fails_boards_with_many(name: str) -> None:
    """BOJ fails a program that prints every completion; these boards have two at least, so ours do too."""
    data = (SUDOKU / "tests" / f"{name}.in").read_bytes()
    first, second = first_two_completions(read_grid(SUDOKU / "tests" / f"{name}.in"))
    assert first != second
    for board in (first, second):
        assert sudoku_checker.check(input=data, output=render(board), answer=b"").verdict is Verdict.AC
    both = sudoku_checker.check(input=data, output=render(first) + render(second), answer=b"")
    assert both.verdict is Verdict.WA


def first_two_completions(grid: list[int]) -> tuple[list[int], list[int]]:
    """The first two completions in reading order, trying digits 1..9; fails the test if there are fewer."""
    board = list(grid)
    blanks = [cell for cell in range(81) if board[cell] == 0]
    found: list[list[int]] = []

    def allowed(cell: int, digit: int) -> bool:
        row, col = divmod(cell, 9)
        peers = [row * 9 + i for i in range(9)] + [i * 9 + col for i in range(9)]
        top, left = row - row % 3, col - col % 3
        peers += [(top + r) * 9 + left + c for r in range(3) for c in range(3)]
        return all(board[peer] != digit for peer in peers)

    def solve(k: int) -> bool:
        if k == len(blanks):
            found.append(list(board))
            return len(found) == 2
        for digit in range(1, 10):
            if allowed(blanks[k], digit):
                board[blanks[k]] = digit
                if solve(k + 1):
                    return True
                board[blanks[k]] = 0
        return False

    assert solve(0), "fewer than two completions"
    return found[0], found[1]


def read_grid(path: Path) -> list[int]:
    return [int(token) for token in path.read_bytes().split()]


def render(board: list[int]) -> bytes:
    return b"".join(b" ".join(b"%d" % digit for digit in board[row * 9 : row * 9 + 9]) + b"\n" for row in range(9))


def test_nqueen_answers_match_oeis_a000170() -> None:
    for case in NQUEEN_TESTS:
        n = int(case.input_path.read_bytes())
        assert case.answer_path.read_bytes() == f"{A000170[n - 1]}\n".encode(), case.name
    assert (NQUEEN / "tests" / "sample1.in").read_bytes() == b"8\n"
    assert (NQUEEN / "tests" / "sample1.ans").read_bytes() == b"92\n"


# --- the call count the validator reports is the plain search's --------------------------------------------------


def plain_search_calls(grid: list[int]) -> int:
    """The search BOJ's promise speaks of, written the obvious way: scan row, column and box for each digit."""
    board = [grid[row * 9 : row * 9 + 9] for row in range(9)]
    blanks = [(row, col) for row in range(9) for col in range(9) if board[row][col] == 0]
    calls = 0

    def allowed(row: int, col: int, digit: int) -> bool:
        if any(board[row][i] == digit or board[i][col] == digit for i in range(9)):
            return False
        top, left = row - row % 3, col - col % 3
        return all(board[r][c] != digit for r in range(top, top + 3) for c in range(left, left + 3))

    def solve(k: int) -> bool:
        nonlocal calls
        calls += 1
        if k == len(blanks):
            return True
        row, col = blanks[k]
        for digit in range(1, 10):
            if allowed(row, col, digit):
                board[row][col] = digit
                if solve(k + 1):
                    return True
                board[row][col] = 0
        return False

    assert solve(0)
    return calls


@pytest.mark.parametrize(
    "name", ["sample1", "04-full-board", "09-blank-top-four-rows", "16-half-blank-many-solutions", "28-unique-level-09"]
)
def test_validator_counts_calls_like_the_plain_search(name: str) -> None:
    data = (SUDOKU / "tests" / f"{name}.in").read_bytes()
    grid = [int(token) for token in data.split()]
    answer = [int(token) for token in (SUDOKU / "tests" / f"{name}.ans").read_bytes().split()]
    assert sudoku_validator.validate(data).first == plain_search_calls(grid)
    assert sudoku_validator.backtrack(grid)[1] == answer


# --- the second count is the submission that keeps searching, call for call ---------------------------------------

# Runs the submission itself with a profiler counting the calls of its `backtracking`; prints the count on stderr.
COUNT_CALLS = """
import runpy, sys
calls = 0
def count(frame, event, arg):
    global calls
    if event == "call" and frame.f_code.co_name == "backtracking":
        calls += 1
sys.setprofile(count)
runpy.run_path(sys.argv[1], run_name="__main__")
sys.setprofile(None)
print(calls, file=sys.stderr)
"""


def keeps_searching_run(data: bytes) -> tuple[int, bytes]:
    """(calls of `backtracking`, stdout) of flags_keeps_searching.py on `data`."""
    result = subprocess.run(
        [sys.executable, "-c", COUNT_CALLS, str(KEEPS_SEARCHING)],
        input=data,
        capture_output=True,
        timeout=60,
        check=True,
    )
    return int(result.stderr), result.stdout


# 15 is the tiny one: four blanks, two solutions. Had the submission cleared the last blank's flags, it would
# walk all 9 calls of the tree and print both; it makes 6 and prints one. On 16 and 20 a model that read each
# call's free digits once, on entry, would count 8,963 and 272: calls already looping must see the new flags.
@pytest.mark.parametrize(
    ("name", "calls"),
    [
        ("15-two-solutions-rectangle", 6),
        ("sample1", 15),
        ("14-two-bands-given", 4_600),
        ("16-half-blank-many-solutions", 6_149),
        ("20-unique-level-01", 267),
    ],
)
def test_full_search_counts_the_calls_of_the_submission_that_keeps_searching(name: str, calls: int) -> None:
    data = (SUDOKU / "tests" / f"{name}.in").read_bytes()
    submission_calls, output = keeps_searching_run(data)
    assert sudoku_validator.full_search(read_grid(SUDOKU / "tests" / f"{name}.in")) == submission_calls == calls
    assert sudoku_validator.validate(data).full == calls
    assert sudoku_checker.check(input=data, output=output, answer=b"").verdict is Verdict.AC  # one board, printed once


def test_full_search_stops_counting_past_its_limit() -> None:
    empty = [0] * 81  # its search to the end would not finish in a lifetime
    assert sudoku_validator.full_search(empty, limit=1_000) == 1_001
    assert sudoku_validator.backtrack(empty)[0] < sudoku_validator.CALL_LIMIT


# --- validators reject bad inputs ----------------------------------------------------------------------------------

SAMPLE = (SUDOKU / "tests" / "sample1.in").read_bytes()
SAMPLE_LINES = SAMPLE.split(b"\n")[:9]
# A board the plain search cannot finish within 100,000 calls: its first row must be 9 8 7 6 5 4 3 2 1.
# (A well-known puzzle built against brute force; its first row is blank.)
ANTI_BRUTE_FORCE = b"".join(
    line + b"\n"
    for line in [
        b"0 0 0 0 0 0 0 0 0",
        b"0 0 0 0 0 3 0 8 5",
        b"0 0 1 0 2 0 0 0 0",
        b"0 0 0 5 0 7 0 0 0",
        b"0 0 4 0 0 0 1 0 0",
        b"0 9 0 0 0 0 0 0 0",
        b"5 0 0 0 0 0 0 7 3",
        b"0 0 2 0 1 0 0 0 0",
        b"0 0 0 0 4 0 0 0 9",
    ]
)
# Clues that do not clash, but the top-right cell can hold nothing: row 1 lacks only 9, and column 9 has one.
NO_SOLUTION = b"1 2 3 4 5 6 7 8 0\n" + b"0 0 0 0 0 0 0 0 0\n" * 7 + b"0 0 0 0 0 0 0 0 9\n"

SUDOKU_REJECTS = {
    "clues conflict in a row": (SAMPLE.replace(b"0 3 5", b"3 3 5", 1), "clues conflict: row 1 has 3 twice"),
    "clues conflict in a column": (
        b"5 0 0 0 0 0 0 0 0\n" + b"0 0 0 0 0 0 0 0 0\n" * 7 + b"5 0 0 0 0 0 0 0 0\n",
        "clues conflict: column 1 has 5 twice",
    ),
    "clues conflict in a box": (
        b"7 0 0 0 0 0 0 0 0\n0 7 0 0 0 0 0 0 0\n" + b"0 0 0 0 0 0 0 0 0\n" * 7,
        "clues conflict: box 1 has 7 twice",
    ),
    "8 lines": (b"\n".join(SAMPLE_LINES[:8]) + b"\n", "expected 9 lines, got 8"),
    "10 lines": (SAMPLE + b"0 0 0 0 0 0 0 0 0\n", "expected 9 lines, got 10"),
    "a 10": (SAMPLE.replace(b"0 3 5", b"10 3 5", 1), "line 1: '10' is not a digit 0-9"),
    "8 numbers on a line": (SAMPLE.replace(b"0 3 5 4", b"3 5 4", 1), "line 1: expected 9 numbers"),
    "double space": (SAMPLE.replace(b" ", b"  ", 1), "line 1: expected 9 numbers"),
    "no final newline": (SAMPLE[:-1], "input must end with a newline"),
    "text": (b"hello\n", "expected 9 lines, got 1"),
    "not ASCII": (SAMPLE.replace(b"3", "٣".encode(), 1), "input is not ASCII"),
    "empty": (b"", "input must end with a newline"),
    "no solution": (NO_SOLUTION, "the board has no solution"),
    "too hard for the plain search": (ANTI_BRUTE_FORCE, "more than 100000 calls"),
    # The empty board passes the first bound (its first solution takes 392 calls) but not the second.
    "too long for the search that keeps going": (b"0 0 0 0 0 0 0 0 0\n" * 9, "goes on after its first solution"),
}

NQUEEN_REJECTS = {
    "N=15": (b"15\n", "got 15"),
    "N=0": (b"0\n", "got 0"),
    "negative": (b"-3\n", "expected one integer"),
    "text": (b"eight\n", "expected one integer"),
    "leading zero": (b"08\n", "expected one integer"),
    "two numbers": (b"8 9\n", "expected one integer"),
    "no newline": (b"8", "expected one integer"),
    "empty": (b"", "expected one integer"),
    "huge": (b"9" * 100 + b"\n", "expected one integer"),
}


@pytest.mark.parametrize(("data", "message"), SUDOKU_REJECTS.values(), ids=SUDOKU_REJECTS.keys())
def test_sudoku_validator_rejects(data: bytes, message: str) -> None:
    result = run_validator(SUDOKU, data)
    assert result.returncode == 1
    assert result.stdout == b""
    assert message in result.stderr.decode()
    assert result.stderr.decode().count("\n") == 1


@pytest.mark.parametrize(("data", "message"), NQUEEN_REJECTS.values(), ids=NQUEEN_REJECTS.keys())
def test_nqueen_validator_rejects(data: bytes, message: str) -> None:
    result = run_validator(NQUEEN, data)
    assert result.returncode == 1
    assert result.stdout == b""
    assert message in result.stderr.decode()
    assert result.stderr.decode().count("\n") == 1


def test_validators_are_importable() -> None:
    assert sudoku_validator.validate(SAMPLE) == sudoku_validator.SearchCalls(first=15, full=15)
    assert nqueen_validator.validate(b"8\n") == 8
    with pytest.raises(nqueen_validator.InvalidInput):
        nqueen_validator.validate(b"15\n")


# --- the generator ------------------------------------------------------------------------------------------------


@pytest.mark.slow
def test_sudoku_generator_is_reproducible(tmp_path: Path) -> None:
    result = subprocess.run(
        [sys.executable, str(SUDOKU / "generator.py"), "--out", str(tmp_path)],
        capture_output=True,
        timeout=300,
        check=False,
    )
    assert result.returncode == 0, result.stderr.decode()
    generated = {path.name: path.read_bytes() for path in tmp_path.iterdir()}
    committed = {path.name: path.read_bytes() for path in (SUDOKU / "tests").iterdir()}
    assert generated.keys() == committed.keys()
    for name, data in generated.items():
        assert data == committed[name], name
