"""Validator for problem 2580 (Sudoku): is a test input legal, and within BOJ's promise?

Run as `python3 validator.py < test.in`. Exit 0 and print `calls=<n>` on stdout when the input is legal;
exit 1 with one line on stderr when it is not. Also importable: `validate(data)` returns the call count or
raises `InvalidInput`, and `backtrack(grid)` is the reference search the count comes from.

A legal input is exactly 9 lines, each 9 digits 0-9 separated by single spaces and ended by a newline
(0 is a blank). The clues must not repeat a digit in any row, column or 3x3 box, and the board must be
solvable by the plain search BOJ's promise is written for (the BOJ 12095 style): blanks taken in reading
order, digits tried from 1 to 9, one recursive call per step. `calls` counts every call of that search,
the first one and the last one (which sees every blank filled) included, so a full board needs 1 call.
A board the search cannot finish within CALL_LIMIT calls is rejected.
"""

from __future__ import annotations

import sys

CALL_LIMIT = 100_000
LINE_COUNT = 9
ALL_DIGITS = 0b11_1111_1110  # bits 1..9


class InvalidInput(ValueError):
    """The input breaks the format or the problem's promise; the message says where."""


def box_of(row: int, col: int) -> int:
    """Boxes are numbered 0..8 in reading order."""
    return (row // 3) * 3 + col // 3


def parse_board(data: bytes) -> list[int]:
    """The 81 cells in reading order; strict about the layout, since tests are ours to get right."""
    try:
        text = data.decode("ascii")
    except UnicodeDecodeError:
        raise InvalidInput("input is not ASCII") from None
    if not text.endswith("\n"):
        raise InvalidInput("input must end with a newline")
    lines = text[:-1].split("\n")
    if len(lines) != LINE_COUNT:
        raise InvalidInput(f"expected {LINE_COUNT} lines, got {len(lines)}")
    grid: list[int] = []
    for number, line in enumerate(lines, start=1):
        fields = line.split(" ")
        if len(fields) != 9:
            raise InvalidInput(f"line {number}: expected 9 numbers separated by single spaces, got {line!r}")
        for field in fields:
            if len(field) != 1 or field not in "0123456789":
                raise InvalidInput(f"line {number}: {field!r} is not a digit 0-9")
            grid.append(int(field))
    return grid


def check_clues(grid: list[int]) -> None:
    """Raise InvalidInput naming the first row, column or box (1-based) that repeats a clue."""
    for name, groups in (("row", _rows()), ("column", _columns()), ("box", _boxes())):
        for number, cells in enumerate(groups, start=1):
            seen = 0
            for cell in cells:
                digit = grid[cell]
                if digit and seen >> digit & 1:
                    raise InvalidInput(f"clues conflict: {name} {number} has {digit} twice")
                seen |= 1 << digit


def backtrack(grid: list[int], limit: int = CALL_LIMIT) -> tuple[int, list[int] | None]:
    """Run the reading-order search; return (calls, solution), or (calls, None) if it gave up or found none.

    Stops as soon as `calls` would pass `limit`, so the count returned is then `limit + 1`.
    Bit masks stand in for scanning the row, column and box; the order of tries, and so the count, is the
    same as the scanning version's.
    """
    board = list(grid)
    rows = [0] * 9
    cols = [0] * 9
    boxes = [0] * 9
    blanks: list[tuple[int, int, int, int]] = []
    for cell, digit in enumerate(board):
        row, col = divmod(cell, 9)
        box = box_of(row, col)
        if digit:
            rows[row] |= 1 << digit
            cols[col] |= 1 << digit
            boxes[box] |= 1 << digit
        else:
            blanks.append((cell, row, col, box))
    total = len(blanks)
    calls = 0

    def solve(k: int) -> bool:
        nonlocal calls
        calls += 1
        if calls > limit:
            return False
        if k == total:
            return True
        cell, row, col, box = blanks[k]
        free = ALL_DIGITS & ~(rows[row] | cols[col] | boxes[box])
        while free:
            bit = free & -free  # the lowest free digit first, as a loop over 1..9 would try them
            free ^= bit
            rows[row] |= bit
            cols[col] |= bit
            boxes[box] |= bit
            if solve(k + 1):
                board[cell] = bit.bit_length() - 1
                return True
            rows[row] ^= bit
            cols[col] ^= bit
            boxes[box] ^= bit
            if calls > limit:
                break
        return False

    found = solve(0)
    return calls, board if found else None


def validate(data: bytes) -> int:
    """The search's call count for a legal input; InvalidInput otherwise."""
    grid = parse_board(data)
    check_clues(grid)
    calls, solution = backtrack(grid)
    if calls > CALL_LIMIT:
        raise InvalidInput(f"the reading-order search needs more than {CALL_LIMIT} calls")
    if solution is None:
        raise InvalidInput("the board has no solution")
    return calls


def _rows() -> list[list[int]]:
    return [[row * 9 + col for col in range(9)] for row in range(9)]


def _columns() -> list[list[int]]:
    return [[row * 9 + col for row in range(9)] for col in range(9)]


def _boxes() -> list[list[int]]:
    return [
        [(top + row) * 9 + left + col for row in range(3) for col in range(3)]
        for top in (0, 3, 6)
        for left in (0, 3, 6)
    ]


def main() -> int:
    try:
        calls = validate(sys.stdin.buffer.read())
    except InvalidInput as error:
        print(error, file=sys.stderr)
        return 1
    print(f"calls={calls}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
