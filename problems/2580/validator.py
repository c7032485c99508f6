"""Validator for problem 2580 (Sudoku): is a test input legal, and within what BOJ's data allows?

Run as `python3 validator.py < test.in`. Exit 0 and print `calls=<n> full_calls=<m>` on stdout when the input
is legal; exit 1 with one line on stderr when it is not. Also importable: `validate(data)` returns both
counts as `SearchCalls` or raises `InvalidInput`; `backtrack(grid)` and `full_search(grid)` are the searches
the counts come from.

A legal input is exactly 9 lines, each 9 digits 0-9 separated by single spaces and ended by a newline
(0 is a blank). The clues must not repeat a digit in any row, column or 3x3 box, and the board must pass
two bounds on searches that take the blanks in reading order and try the digits from 1 to 9, one
recursive call per step; a count includes the first call and every call that finds all blanks filled, so
a full board needs 1 call.

- `calls`: the plain search BOJ's promise is written for (the BOJ 12095 style), stopping at its first
  solution. A board it cannot finish within CALL_LIMIT calls is rejected.
- `full_calls`: the same search in the shape of a solution BOJ accepted whose recursion drops the success
  value (`if backtracking(depth + 1): return` returns None): it prints the first solution, then keeps
  searching to the end of the tree, with the flags of the last blank still set as that solution left them
  (submissions/2580/accepted/flags_keeps_searching.py). A board whose whole search needs more than
  FULL_SEARCH_CALL_LIMIT calls is rejected, since such a board would fail a solution BOJ accepts.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass

CALL_LIMIT = 100_000
# Every test's search to the end must fit in this many calls. On the unique puzzles (whose first-solution
# search stays under CALL_LIMIT) it needs at most 362,405 calls (tests/42-unique-level-23); a board with a
# huge number of solutions, like the empty board, never lets it finish. BOJ accepted that search, so its
# data has no such board; the bound keeps ours in the same range, with room above the hardest puzzle.
FULL_SEARCH_CALL_LIMIT = 500_000
LINE_COUNT = 9
ALL_DIGITS = 0b11_1111_1110  # bits 1..9

Blank = tuple[int, int, int, int]  # cell, row, column, box


class InvalidInput(ValueError):
    """The input breaks the format or the problem's promise; the message says where."""


@dataclass(frozen=True)
class SearchCalls:
    """The call counts of a legal board: to the first solution, and to the end of the search."""

    first: int
    full: int


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


def _used_and_blanks(grid: list[int]) -> tuple[list[int], list[int], list[int], list[Blank]]:
    """The digits used in each row, column and box as bit masks (bit d = digit d), and the blanks in
    reading order. Masks stand in for scanning the row, column and box, or for a flag table: the order of
    tries, and so the count, is the same."""
    rows, cols, boxes = [0] * 9, [0] * 9, [0] * 9
    blanks: list[Blank] = []
    for cell, digit in enumerate(grid):
        row, col = divmod(cell, 9)
        box = box_of(row, col)
        if digit:
            rows[row] |= 1 << digit
            cols[col] |= 1 << digit
            boxes[box] |= 1 << digit
        else:
            blanks.append((cell, row, col, box))
    return rows, cols, boxes, blanks


def backtrack(grid: list[int], limit: int = CALL_LIMIT) -> tuple[int, list[int] | None]:
    """Run the reading-order search to its first solution; return (calls, solution), or (calls, None) if
    it gave up or found none. Stops as soon as `calls` would pass `limit`, so the count is then `limit + 1`."""
    board = list(grid)
    rows, cols, boxes, blanks = _used_and_blanks(grid)
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


def full_search(grid: list[int], limit: int = FULL_SEARCH_CALL_LIMIT) -> int:
    """Count the calls of the search that does not stop after its first solution; `limit + 1` if it would
    pass `limit`.

    As in flags_keeps_searching.py: the call that finds every blank filled returns True; the call for the
    last blank, seeing that, returns None without clearing its digit's flags; every other call treats None
    as "not found", clears its own flags and tries its next digit. The last blank's digit stays used in its
    row, column and box, so no second board is ever completed, but the rest of the tree is walked.
    Each digit is checked against the flags when its turn comes, as the submission's loop over 1..9 does:
    a call that was already looping when the first solution set those flags must see them.
    """
    rows, cols, boxes, blanks = _used_and_blanks(grid)
    total = len(blanks)
    calls = 0

    def solve(k: int) -> bool:
        nonlocal calls
        calls += 1
        if calls > limit:
            return False
        if k == total:
            return True
        _, row, col, box = blanks[k]
        untried = ALL_DIGITS
        while free := untried & ~(rows[row] | cols[col] | boxes[box]):
            bit = free & -free
            untried = ALL_DIGITS & ~((bit << 1) - 1)  # the digits after this one
            rows[row] |= bit
            cols[col] |= bit
            boxes[box] |= bit
            if solve(k + 1):
                return False  # the submission's bare `return`: its caller sees None, these flags stay set
            rows[row] ^= bit
            cols[col] ^= bit
            boxes[box] ^= bit
            if calls > limit:
                break
        return False

    solve(0)
    return calls


def validate(data: bytes) -> SearchCalls:
    """Both searches' call counts for a legal input; InvalidInput otherwise."""
    grid = parse_board(data)
    check_clues(grid)
    calls, solution = backtrack(grid)
    if calls > CALL_LIMIT:
        raise InvalidInput(f"the reading-order search needs more than {CALL_LIMIT} calls")
    if solution is None:
        raise InvalidInput("the board has no solution")
    full_calls = full_search(grid)
    if full_calls > FULL_SEARCH_CALL_LIMIT:
        raise InvalidInput(
            f"the reading-order search that goes on after its first solution needs more than "
            f"{FULL_SEARCH_CALL_LIMIT} calls"
        )
    return SearchCalls(first=calls, full=full_calls)


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
        counts = validate(sys.stdin.buffer.read())
    except InvalidInput as error:
        print(error, file=sys.stderr)
        return 1
    print(f"calls={counts.first} full_calls={counts.full}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
