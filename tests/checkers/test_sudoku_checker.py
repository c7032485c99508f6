"""Table and property tests for problems/2580/checker.py, the Sudoku special judge."""

from __future__ import annotations

import importlib.util
import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from judge.checkers.base import CheckResult
from judge.verdicts import Verdict

PROBLEM = Path(__file__).resolve().parents[2] / "problems" / "2580"


def _load_checker():
    spec = importlib.util.spec_from_file_location("problem_2580_checker", PROBLEM / "checker.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.check


check = _load_checker()

SAMPLE_IN = (PROBLEM / "tests" / "sample1.in").read_bytes()
SAMPLE_ANS = (PROBLEM / "tests" / "sample1.ans").read_bytes()
SOLVED = [int(token) for token in SAMPLE_ANS.split()]
EMPTY_IN = b"0 0 0 0 0 0 0 0 0\n" * 9
FULL_IN = SAMPLE_ANS


def render(cells: list, separators: list[bytes] | None = None) -> bytes:
    """Cells as text: 9 lines of 9 by default, or joined by the given separators (one per gap)."""
    tokens = [str(cell).encode() if isinstance(cell, int) else cell for cell in cells]
    if separators is None:
        return b"".join(b" ".join(tokens[row * 9 : row * 9 + 9]) + b"\n" for row in range(9))
    out = [tokens[0]]
    for separator, token in zip(separators, tokens[1:]):
        out += [separator, token]
    return b"".join(out) + b"\n"


def replaced(cells: list, index: int, value) -> list:
    copy = list(cells)
    copy[index] = value
    return copy


def accepted(output: bytes, input: bytes = SAMPLE_IN) -> None:
    assert check(input=input, output=output, answer=SAMPLE_ANS) == CheckResult(Verdict.AC, "")


def wrong(output: bytes, message: str, input: bytes = SAMPLE_IN) -> None:
    assert check(input=input, output=output, answer=SAMPLE_ANS) == CheckResult(Verdict.WA, message)


# --- accepted layouts -------------------------------------------------------------------------------------------

ACCEPTED_LAYOUTS = {
    "the sample answer": SAMPLE_ANS,
    "newlines instead of spaces": render(SOLVED, [b"\n"] * 80),
    "all on one line": render(SOLVED, [b" "] * 80),
    "trailing spaces on every line": SAMPLE_ANS.replace(b"\n", b"   \n"),
    "no trailing newline": SAMPLE_ANS.rstrip(b"\n"),
    "trailing blank lines": SAMPLE_ANS + b"\n\n\n",
    "CRLF line ends": SAMPLE_ANS.replace(b"\n", b"\r\n"),
    "tabs and double spaces": SAMPLE_ANS.replace(b" ", b"\t  "),
    "leading whitespace": b"\n  \t" + SAMPLE_ANS,
    "vertical tab and form feed": render(SOLVED, [b"\x0b", b"\x0c"] * 40),
}


@pytest.mark.parametrize("output", ACCEPTED_LAYOUTS.values(), ids=ACCEPTED_LAYOUTS.keys())
def test_layouts_that_keep_the_81_numbers_in_order_are_accepted(output: bytes) -> None:
    accepted(output)


def test_the_reference_answer_is_not_consulted() -> None:
    assert check(input=SAMPLE_IN, output=SAMPLE_ANS, answer=b"\xff garbage") == CheckResult(Verdict.AC, "")


def test_another_completion_of_an_open_board_is_accepted() -> None:
    relabelled = [10 - digit for digit in SOLVED]  # a different solved grid, valid for the empty board
    accepted(render(relabelled), input=EMPTY_IN)


# --- rejected outputs, each with the message that points at its first fault --------------------------------------

LATIN_NOT_SUDOKU = [(row + col) % 9 + 1 for row in range(9) for col in range(9)]
ROWS_4_AND_7_SWAPPED = SOLVED[:27] + SOLVED[54:63] + SOLVED[36:54] + SOLVED[27:36] + SOLVED[63:]
ROW_1_CELLS_2_AND_3_SWAPPED = [SOLVED[0], SOLVED[2], SOLVED[1], *SOLVED[3:]]

REJECTED = {
    "Arabic-Indic digit three": (render(replaced(SOLVED, 11, "٣".encode())), "token 12 is not a digit 1-9: '٣'"),
    "plus sign": (render(replaced(SOLVED, 0, b"+1")), "token 1 is not a digit 1-9: '+1'"),
    "leading zero": (render(replaced(SOLVED, 4, b"06")), "token 5 is not a digit 1-9: '06'"),
    "decimal point": (render(replaced(SOLVED, 0, b"1.0")), "token 1 is not a digit 1-9: '1.0'"),
    "underscore": (render(replaced(SOLVED, 0, b"1_0")), "token 1 is not a digit 1-9: '1_0'"),
    "ten": (render(replaced(SOLVED, 80, b"10")), "token 81 is not a digit 1-9: '10'"),
    "zero": (render(replaced(SOLVED, 0, b"0")), "token 1 is not a digit 1-9: '0'"),
    "minus": (render(replaced(SOLVED, 0, b"-1")), "token 1 is not a digit 1-9: '-1'"),
    "fullwidth digit": (render(replaced(SOLVED, 0, "１".encode())), "token 1 is not a digit 1-9: '１'"),
    "NUL byte": (render(replaced(SOLVED, 2, b"5\x00")), "token 3 is not a digit 1-9: '5\\x00'"),
    "invalid UTF-8": (render(replaced(SOLVED, 0, b"\xff")), "token 1 is not a digit 1-9: b'\\xff'"),
    "non-breaking space joins two numbers": (
        SAMPLE_ANS.replace(b"1 3", "1\u00a03".encode(), 1),
        "token 1 is not a digit 1-9: '1\\xa03'",
    ),
    "comma separated": (SAMPLE_ANS.replace(b" ", b","), "token 1 is not a digit 1-9: '1,3,5,4,6,9,2,7,8'"),
    "80 numbers": (render(SOLVED[:80], [b" "] * 79), "expected 81 numbers, got 80"),
    "82 numbers": (SAMPLE_ANS + b"1\n", "expected 81 numbers, got 82"),
    "a bad token past the 81st is a count fault": (SAMPLE_ANS + b"x\n", "expected 81 numbers, got 82"),
    "empty output": (b"", "expected 81 numbers, got 0"),
    "whitespace only": (b" \n\t\r\n", "expected 81 numbers, got 0"),
    "two whole boards": (SAMPLE_ANS * 2, "expected 81 numbers, got 162"),
    "the input echoed": (SAMPLE_IN, "token 1 is not a digit 1-9: '0'"),
}

# Grid faults need an input whose clues allow them: the empty board, or the full board for a changed clue.
GRID_FAULTS = {
    "row repeats a digit": (EMPTY_IN, render(replaced(SOLVED, 3 * 9 + 1, 7)), "row 4 has 7 twice"),
    "column repeats a digit": (EMPTY_IN, render(ROW_1_CELLS_2_AND_3_SWAPPED), "column 2 has 5 twice"),
    "Latin square that is no Sudoku": (EMPTY_IN, render(LATIN_NOT_SUDOKU), "box 1 has 2 twice"),
    "rows from two bands swapped": (EMPTY_IN, render(ROWS_4_AND_7_SWAPPED), "box 4 has 7 twice"),
    "given clue overwritten": (FULL_IN, render(replaced(SOLVED, 9 + 4, 8)), "cell (2,5) was 3 in the input, got 8"),
    "clue check comes before rows": (
        SAMPLE_IN,
        render(replaced(SOLVED, 1, 5)),
        "cell (1,2) was 3 in the input, got 5",
    ),
    "first blank filled wrongly": (SAMPLE_IN, render(replaced(SOLVED, 0, 2)), "row 1 has 2 twice"),
}


@pytest.mark.parametrize(("output", "message"), REJECTED.values(), ids=REJECTED.keys())
def test_bad_tokens_and_counts_are_wrong_answers(output: bytes, message: str) -> None:
    wrong(output, message)


@pytest.mark.parametrize(("input", "output", "message"), GRID_FAULTS.values(), ids=GRID_FAULTS.keys())
def test_grid_faults_name_the_first_broken_rule(input: bytes, output: bytes, message: str) -> None:
    wrong(output, message, input=input)


def test_a_million_tokens_are_counted_not_echoed() -> None:
    wrong(b"1 " * 1_000_000, "expected 81 numbers, got 1000000")


def test_a_huge_token_is_shown_shortened() -> None:
    result = check(input=SAMPLE_IN, output=b"7" * 10_000_000, answer=SAMPLE_ANS)
    assert result.verdict is Verdict.WA
    assert result.message.startswith("token 1 is not a digit 1-9: '777")
    assert len(result.message) < 100


def test_a_broken_test_input_is_a_judge_error_not_a_verdict() -> None:
    with pytest.raises(ValueError, match="validator"):
        check(input=b"1 2 3\n", output=SAMPLE_ANS, answer=SAMPLE_ANS)


# --- properties --------------------------------------------------------------------------------------------------

PROPERTY_SETTINGS = settings(max_examples=150, deadline=None)


def assert_wrong_with_message(output: bytes, input: bytes = SAMPLE_IN) -> None:
    result = check(input=input, output=output, answer=SAMPLE_ANS)
    assert result.verdict is Verdict.WA
    assert result.message


@PROPERTY_SETTINGS
@given(st.binary(max_size=2_000))
def test_random_bytes_never_raise(output: bytes) -> None:
    assert_wrong_with_message(output)


@PROPERTY_SETTINGS
@given(
    st.integers(min_value=0, max_value=len(SAMPLE_ANS)),
    st.sampled_from([b"\x00", b"\xff", b"\xc3", b"\xed\xa0\x80", b"\x80\x80", b"\xf4\x90\x80\x80"]),
)
def test_nul_and_invalid_utf8_anywhere_are_wrong(position: int, junk: bytes) -> None:
    assert_wrong_with_message(SAMPLE_ANS[:position] + junk + SAMPLE_ANS[position:])


NON_ASCII_DIGITS = st.characters(categories=["Nd"]).filter(lambda char: not char.isascii())


@PROPERTY_SETTINGS
@given(st.integers(min_value=0, max_value=80), NON_ASCII_DIGITS)
def test_unicode_digits_are_not_digits(index: int, digit: str) -> None:
    output = render(replaced(SOLVED, index, digit.encode()))
    result = check(input=SAMPLE_IN, output=output, answer=SAMPLE_ANS)
    assert result.verdict is Verdict.WA
    assert result.message.startswith(f"token {index + 1} is not a digit 1-9: ")


@settings(max_examples=10, deadline=None)
@given(st.integers(min_value=82, max_value=1_000_000), st.sampled_from([b"1", b"9", b"x", b"\x00"]))
def test_many_tokens_never_raise(count: int, token: bytes) -> None:
    assert_wrong_with_message((token + b" ") * count)


def random_solved_grid(rng: random.Random) -> list[int]:
    """A solved grid from the sample's: relabel digits, shuffle bands, stacks and lines inside them, transpose."""
    digits = list(range(1, 10))
    rng.shuffle(digits)
    relabel = [0, *digits]

    def line_order() -> list[int]:
        bands = rng.sample(range(3), 3)
        return [band * 3 + line for band in bands for line in rng.sample(range(3), 3)]

    rows, cols, transpose = line_order(), line_order(), rng.random() < 0.5
    grid = []
    for row in range(9):
        for col in range(9):
            source_row, source_col = (cols[col], rows[row]) if transpose else (rows[row], cols[col])
            grid.append(relabel[SOLVED[source_row * 9 + source_col]])
    return grid


SEPARATORS = st.sampled_from([b" ", b"  ", b"\n", b"\t", b"\r\n", b" \n", b"\n\n"])


@PROPERTY_SETTINGS
@given(
    st.randoms(use_true_random=False),
    st.floats(min_value=0, max_value=1),
    st.lists(SEPARATORS, min_size=80, max_size=80),
)
def test_every_valid_completion_is_accepted(rng: random.Random, blank_share: float, separators: list[bytes]) -> None:
    solved = random_solved_grid(rng)
    puzzle = [0 if rng.random() < blank_share else digit for digit in solved]
    accepted(render(solved, separators), input=render(puzzle))


@PROPERTY_SETTINGS
@given(st.randoms(use_true_random=False), st.integers(min_value=0, max_value=80), st.integers(min_value=1, max_value=8))
def test_changing_one_cell_of_a_completion_is_wrong(rng: random.Random, cell: int, shift: int) -> None:
    solved = random_solved_grid(rng)
    broken = replaced(solved, cell, (solved[cell] - 1 + shift) % 9 + 1)
    assert_wrong_with_message(render(broken), input=EMPTY_IN)
