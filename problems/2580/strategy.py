"""Stress inputs for problem 2580 (Sudoku), for `judge stress`: a valid full board with some cells blanked.

The full board is a base grid (row r, column c holds (3r + r//3 + c) mod 9 + 1) with its digits relabelled
and its rows and columns shuffled within bands and stacks, and the bands and stacks shuffled: every such board
is a valid Sudoku. Hypothesis picks the shuffles and the cells to blank; it shrinks towards fewer blanks, blanks
early in reading order, and the unshuffled base grid.

At most MAX_BLANKS cells are blanked, so that every board passes validator.py (its search to the end of the
tree stays within its call limit: at 45 random blanks the worst of 60 boards needed 5,820 calls of the 500,000
allowed; at 55 blanks a third of them are rejected). Runs inside the judge's process (it is the teacher's code,
like generator.py).

A failing bundled test is simplified by giving blanks back: each blank gets the digit of a correct answer, so the
board stays a valid puzzle with fewer blanks (simplify). Candidates come biggest step first, as in delta
debugging: give back either half of the blanks, then each quarter, ..., then each blank alone; the judge keeps
the first that fails the same way and starts again from it.
"""

from collections.abc import Iterator

from hypothesis import strategies as st

MAX_BLANKS = 45

Grid = list[int]


def base_digit(row: int, col: int) -> int:
    return (3 * row + row // 3 + col) % 9 + 1


def _line_order() -> st.SearchStrategy[list[int]]:
    """An order of the nine rows (or columns) that keeps each band (stack) together."""
    return st.tuples(
        st.permutations(range(3)), st.permutations(range(3)), st.permutations(range(3)), st.permutations(range(3))
    ).map(lambda parts: [3 * parts[0][band] + parts[band + 1][line] for band in range(3) for line in range(3)])


@st.composite
def full_boards(draw: st.DrawFn) -> Grid:
    digits = draw(st.permutations(range(1, 10)))
    rows = draw(_line_order())
    cols = draw(_line_order())
    return [digits[base_digit(rows[r], cols[c]) - 1] for r in range(9) for c in range(9)]


@st.composite
def boards(draw: st.DrawFn) -> Grid:
    grid = draw(full_boards())
    blanks = draw(st.lists(st.integers(0, 80), unique=True, max_size=MAX_BLANKS))
    for cell in blanks:
        grid[cell] = 0
    return grid


def render(grid: Grid) -> str:
    return "".join(" ".join(str(d) for d in grid[r * 9:r * 9 + 9]) + "\n" for r in range(9))


def inputs() -> st.SearchStrategy[str]:
    """The legal inputs: 9 lines of 9 digits, 0 for a blank."""
    return boards().map(render)


def magnitude(text: str) -> int:
    """How big an input is, as a number: its blanks."""
    return text.split().count("0")


def size(text: str) -> str:
    """How big an input is, as the report says it."""
    blanks = magnitude(text)
    return f"{blanks} blank" if blanks == 1 else f"{blanks} blanks"


def simplify(text: str, answer: str) -> Iterator[str]:
    """Boards with fewer blanks, each blank given back from `answer` (a correct completion of `text`)."""
    grid, solved = [int(token) for token in text.split()], [int(token) for token in answer.split()]
    if len(grid) != 81 or len(solved) != 81:
        return
    blanks = [cell for cell in range(81) if grid[cell] == 0]
    grain = max(1, len(blanks) // 2)
    while blanks and grain >= 1:
        for start in range(0, len(blanks), grain):
            given_back = set(blanks[start:start + grain])
            yield render([solved[cell] if cell in given_back else digit for cell, digit in enumerate(grid)])
        grain //= 2
