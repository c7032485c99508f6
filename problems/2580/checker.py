"""Special judge for problem 2580 (Sudoku): any valid completion of the input board is accepted.

The output must hold exactly 81 numbers, each a single ASCII digit 1-9 (so `0`, `10`, `01`, `+1`, `1.0`
and a Unicode digit like `٣` are all rejected). Numbers may be separated by any ASCII whitespace, as BOJ's
special judges read tokens: a newline where a space was expected, a space where a newline was expected,
trailing spaces and blank lines are all fine, and so is a layout other than 9 lines of 9 as long as the 81
numbers come in reading order. Every clue of the input must be kept, and every row, column and 3x3 box must
hold each of 1-9 once. The reference answer is not consulted: a puzzle may have many solutions.

Anything else is WA with a message about the first fault, checked in this order: the tokens one by one,
their count, the clues, the rows, the columns, the boxes. Rows, columns, boxes and cells are numbered from 1
(boxes in reading order), and tokens from 1 in the order they appear:

    token 12 is not a digit 1-9: '٣'        expected 81 numbers, got 80
    cell (2,5) was 3 in the input, got 8    row 4 has 7 twice    column 2 has 5 twice    box 4 has 7 twice

(Once the rows are right, columns 1-8 force column 9, and boxes 1, 2, 4 and 5 force the rest, so those are the
only columns and boxes a first fault can name.) A token is shown as the student wrote it, quoted and cut to 40
characters; bytes that are not UTF-8 are shown as bytes, e.g. b'\\xff'.

The input is trusted (the validator vouches for it); an input that is not 81 digits 0-9 raises ValueError,
which the judge reports as a judge error rather than blaming the submission.
"""

from __future__ import annotations

from judge.checkers.base import CheckResult
from judge.verdicts import Verdict

CELLS = 81
DIGIT_TOKENS = {str(digit).encode(): digit for digit in range(1, 10)}
SHOWN_WIDTH = 40

ROWS = tuple(tuple(row * 9 + col for col in range(9)) for row in range(9))
COLUMNS = tuple(tuple(row * 9 + col for row in range(9)) for col in range(9))
BOXES = tuple(
    tuple((top + row) * 9 + left + col for row in range(3) for col in range(3))
    for top in (0, 3, 6)
    for left in (0, 3, 6)
)
GROUPS = (("row", ROWS), ("column", COLUMNS), ("box", BOXES))


def check(*, input: bytes, output: bytes, answer: bytes) -> CheckResult:
    """AC if `output` completes the board in `input`; WA with the first fault otherwise. `answer` is unused."""
    del answer  # any valid completion counts, not only the reference one
    clues = _read_input(input)
    # bytes.split() splits on ASCII whitespace only, so a non-breaking space stays inside a token.
    tokens = output.split()
    board: list[int] = []
    for number, token in enumerate(tokens[:CELLS], start=1):
        digit = DIGIT_TOKENS.get(token)
        if digit is None:
            return _wrong(f"token {number} is not a digit 1-9: {_show(token)}")
        board.append(digit)
    if len(tokens) != CELLS:
        return _wrong(f"expected {CELLS} numbers, got {len(tokens)}")
    for cell, (clue, digit) in enumerate(zip(clues, board)):
        if clue and clue != digit:
            return _wrong(f"cell ({cell // 9 + 1},{cell % 9 + 1}) was {clue} in the input, got {digit}")
    for name, groups in GROUPS:
        for number, cells in enumerate(groups, start=1):
            seen = 0
            for cell in cells:
                bit = 1 << board[cell]
                if seen & bit:
                    return _wrong(f"{name} {number} has {board[cell]} twice")
                seen |= bit
    return CheckResult(Verdict.AC, "")


def _read_input(data: bytes) -> list[int]:
    tokens = data.split()
    if len(tokens) != CELLS or any(len(token) != 1 or token not in b"0123456789" for token in tokens):
        raise ValueError("2580 checker: the test input is not 81 digits 0-9; run validator.py on it")
    return [int(token) for token in tokens]


def _show(token: bytes) -> str:
    """The token quoted as Python would, so NULs and control bytes are visible, cut to SHOWN_WIDTH characters.
    Bytes that are not UTF-8 are shown as bytes (`b'\\xff'`), so the student sees which byte is wrong."""
    try:
        text: str | bytes = token.decode("utf-8")
    except UnicodeDecodeError:
        text = token
    return repr(text[:SHOWN_WIDTH]) + ("…" if len(text) > SHOWN_WIDTH else "")


def _wrong(message: str) -> CheckResult:
    return CheckResult(Verdict.WA, message)
