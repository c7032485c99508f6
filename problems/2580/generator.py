"""Generator for problem 2580 (Sudoku): writes every test as tests/<name>.in with tests/<name>.ans.

    python3 generator.py              # (re)write problems/2580/tests/
    python3 generator.py --out DIR    # write the same files into DIR instead

Deterministic: seeded RNGs drive everything, so a rerun rewrites byte-identical files.

The tests, in order: the sample; boards with one blank, no blank, a blank row, column, box or diagonal;
sparse boards with many solutions (09-13); other boards with many solutions; unique puzzles with a few
random blanks; then unique puzzles graded by the call count of the reading-order search that the validator
runs (validator.py defines it), from about a hundred calls up to just under the 100,000-call promise. The
hard ones are found by search: make a minimal puzzle (remove clues while the solution stays unique), then
relabel digits and shuffle rows, columns, bands and stacks, which keeps it a unique puzzle but moves the
search's work a great deal, and keep whichever variant lands in a level's window. Easier levels put some
clues back first.

Every test also keeps the validator's second bound: the same search, carried on to the end of its tree
after the first solution (as a solution BOJ accepted does), stays within FULL_SEARCH_CALL_LIMIT calls. So
the sparse boards are as open as that allows, not empty: whole blank rows or boxes, or as many scattered
blanks as fit. They catch a program that prints every solution, that assumes the solution is unique, or
that keeps every partial board in memory (12-blank-bottom-four-rows-and-top-right-box has over a million
partial fillings in reading order). They draw from their own RNG, so changing them leaves the other tests
as they are.

Each .ans is one valid completion: the unique one, or the one the reading-order search finds first.
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path
from typing import Callable

sys.path.insert(0, str(Path(__file__).resolve().parent))
from validator import (  # noqa: E402
    ALL_DIGITS,
    CALL_LIMIT,
    FULL_SEARCH_CALL_LIMIT,
    backtrack,
    box_of,
    full_search,
    validate,
)

SEED = 2580
SPARSE_SEED = 25800  # the sparse boards' own RNG
# The searched-for sparse boards keep the search to the end under this many calls: inside the validator's
# bound with room to spare, and under the hardest unique puzzle's count.
SPARSE_FULL_CALLS = 300_000
RELABEL_ATTEMPTS = 50  # about half of all renamings fit, so running out means the board itself is wrong
Grid = list[int]

SAMPLE = """\
0 3 5 4 6 9 2 7 8
7 8 2 1 0 5 6 0 9
0 6 0 2 7 8 1 3 5
3 2 1 0 4 6 8 9 7
8 0 4 9 1 3 5 0 6
5 9 6 8 2 0 4 1 3
9 1 7 6 5 2 0 8 0
6 0 3 7 0 1 9 5 2
2 5 8 3 9 4 7 6 0
"""

# Windows (lowest, highest) of the search's call count for the graded unique puzzles, easiest first; the
# last third sits above 50,000 calls, with the top window just under the promise.
LEVELS: tuple[tuple[int, int], ...] = (
    (50, 200),
    (200, 500),
    (500, 1_000),
    (1_000, 2_000),
    (2_000, 3_500),
    (3_500, 5_000),
    (5_000, 7_500),
    (7_500, 10_000),
    (10_000, 15_000),
    (15_000, 20_000),
    (20_000, 25_000),
    (25_000, 30_000),
    (30_000, 40_000),
    (40_000, 50_000),
    (50_000, 60_000),
    (60_000, 70_000),
    (70_000, 80_000),
    (80_000, 85_000),
    (85_000, 90_000),
    (90_000, 93_000),
    (93_000, 96_000),
    (96_000, 98_000),
    (98_000, 99_000),
    (99_000, CALL_LIMIT),
)
VARIANTS_PER_PUZZLE = 12
CLUES_PUT_BACK = (0, 0, 4, 8, 14)
MAX_DESCENT = 8

BOX = [box_of(cell // 9, cell % 9) for cell in range(81)]


def count_solutions(grid: Grid, cap: int = 2) -> int:
    """How many completions `grid` has, counting no further than `cap` (fewest-candidates-first search)."""
    rows, cols, boxes = [0] * 9, [0] * 9, [0] * 9
    blanks = []
    for cell, digit in enumerate(grid):
        row, col, box = cell // 9, cell % 9, BOX[cell]
        if digit:
            rows[row] |= 1 << digit
            cols[col] |= 1 << digit
            boxes[box] |= 1 << digit
        else:
            blanks.append((row, col, box))
    found = 0

    def search(open_cells: list[tuple[int, int, int]]) -> bool:
        nonlocal found
        if not open_cells:
            found += 1
            return found >= cap
        best_index, best_free, best_size = -1, 0, 10
        for index, (row, col, box) in enumerate(open_cells):
            free = ALL_DIGITS & ~(rows[row] | cols[col] | boxes[box])
            size = free.bit_count()
            if size < best_size:
                best_index, best_free, best_size = index, free, size
                if size <= 1:
                    break
        if best_size == 0:
            return False
        row, col, box = open_cells[best_index]
        rest = open_cells[:best_index] + open_cells[best_index + 1 :]
        while best_free:
            bit = best_free & -best_free
            best_free ^= bit
            rows[row] |= bit
            cols[col] |= bit
            boxes[box] |= bit
            done = search(rest)
            rows[row] ^= bit
            cols[col] ^= bit
            boxes[box] ^= bit
            if done:
                return True
        return False

    search(blanks)
    return found


def random_solution(rng: random.Random) -> Grid:
    """A solved grid: fill cells in reading order, digits in a random order, backtracking on dead ends."""
    grid = [0] * 81
    rows, cols, boxes = [0] * 9, [0] * 9, [0] * 9

    def fill(cell: int) -> bool:
        if cell == 81:
            return True
        row, col, box = cell // 9, cell % 9, BOX[cell]
        digits = list(range(1, 10))
        rng.shuffle(digits)
        for digit in digits:
            bit = 1 << digit
            if not (rows[row] | cols[col] | boxes[box]) & bit:
                rows[row] |= bit
                cols[col] |= bit
                boxes[box] |= bit
                grid[cell] = digit
                if fill(cell + 1):
                    return True
                rows[row] ^= bit
                cols[col] ^= bit
                boxes[box] ^= bit
        grid[cell] = 0
        return False

    fill(0)
    return grid


def minimal_puzzle(solution: Grid, rng: random.Random) -> Grid:
    """Blank cells in a random order, each only if the solution stays unique; no clue left can go."""
    puzzle = list(solution)
    order = list(range(81))
    rng.shuffle(order)
    for cell in order:
        puzzle[cell] = 0
        if count_solutions(puzzle) != 1:
            puzzle[cell] = solution[cell]
    return puzzle


def blank_randomly(solution: Grid, blanks: int, rng: random.Random) -> Grid:
    """Blank `blanks` cells chosen at random, skipping any whose loss would allow a second solution."""
    puzzle = list(solution)
    order = list(range(81))
    rng.shuffle(order)
    removed = 0
    for cell in order:
        if removed == blanks:
            break
        puzzle[cell] = 0
        if count_solutions(puzzle) == 1:
            removed += 1
        else:
            puzzle[cell] = solution[cell]
    return puzzle


def random_symmetry(rng: random.Random) -> Callable[[Grid], Grid]:
    """A random relabelling of digits plus shuffles of rows in bands, bands, columns in stacks, stacks, and
    maybe a transpose: all map solved grids to solved grids and unique puzzles to unique puzzles."""
    digits = list(range(1, 10))
    rng.shuffle(digits)
    relabel = [0, *digits]
    row_order = _line_order(rng)
    col_order = _line_order(rng)
    transpose = rng.random() < 0.5

    def apply(grid: Grid) -> Grid:
        out = [0] * 81
        for row in range(9):
            for col in range(9):
                source_row, source_col = row_order[row], col_order[col]
                if transpose:
                    source_row, source_col = source_col, source_row
                out[row * 9 + col] = relabel[grid[source_row * 9 + source_col]]
        return out

    return apply


def _line_order(rng: random.Random) -> list[int]:
    bands = [0, 1, 2]
    rng.shuffle(bands)
    order = []
    for band in bands:
        within = [0, 1, 2]
        rng.shuffle(within)
        order += [band * 3 + line for line in within]
    return order


def graded_puzzles(rng: random.Random) -> list[tuple[Grid, Grid]]:
    """One (puzzle, solution) per level of LEVELS, each unique and inside its window of call counts.

    A variant too hard for every open window gets clues put back one at a time, which walks its count down
    and often into a high window; those are the rarest, so this saves most of the search.
    """
    chosen: list[tuple[Grid, Grid] | None] = [None] * len(LEVELS)
    while None in chosen:
        solution = random_solution(rng)
        base = minimal_puzzle(solution, rng)
        for _variant in range(VARIANTS_PER_PUZZLE):
            if None not in chosen:
                break
            symmetry = random_symmetry(rng)
            puzzle, solved = symmetry(base), symmetry(solution)
            blanks = [cell for cell in range(81) if puzzle[cell] == 0]
            rng.shuffle(blanks)
            for _clue in range(rng.choice(CLUES_PUT_BACK)):
                cell = blanks.pop()
                puzzle[cell] = solved[cell]
            for _step in range(MAX_DESCENT):
                open_levels = [level for level, entry in enumerate(chosen) if entry is None]
                ceiling = max(LEVELS[level][1] for level in open_levels)
                calls, _ = backtrack(puzzle, limit=ceiling)  # nothing open above the ceiling: stop there
                level = next((level for level in open_levels if LEVELS[level][0] <= calls <= LEVELS[level][1]), None)
                if level is not None and full_search(puzzle) > FULL_SEARCH_CALL_LIMIT:
                    level = None  # the validator would reject it: drop this variant
                if level is not None:
                    chosen[level] = (list(puzzle), solved)
                if level is not None or calls <= ceiling or not blanks:
                    break
                cell = blanks.pop()
                puzzle[cell] = solved[cell]
    return [entry for entry in chosen if entry is not None]


def build_tests() -> list[tuple[str, Grid, Grid, bool]]:
    """Every test as (name, input grid, answer grid, whether the answer must be the only completion)."""
    rng = random.Random(SEED)
    tests: list[tuple[str, Grid, Grid, bool]] = []

    def add(name: str, puzzle: Grid, unique: bool, answer: Grid | None = None) -> None:
        if answer is None:
            _, answer = backtrack(puzzle)
            assert answer is not None, name
        tests.append((name, puzzle, answer, unique))

    sample = [int(token) for token in SAMPLE.split()]
    add("sample1", sample, unique=True)

    full = random_solution(rng)

    def without(cells: list[int], grid: Grid = full) -> Grid:
        return [0 if cell in cells else digit for cell, digit in enumerate(grid)]

    add("01-one-blank-first-cell", without([0]), True, full)
    add("02-one-blank-last-cell", without([80]), True, full)
    add("03-one-blank-center", without([40]), True, full)
    add("04-full-board", list(full), True, full)
    add("05-blank-row", without(list(range(36, 45))), True, full)
    add("06-blank-column", without(list(range(4, 81, 9))), True, full)
    add("07-blank-box", without([r * 9 + c for r in range(3, 6) for c in range(6, 9)]), True, full)
    add("08-blank-diagonal", without([i * 10 for i in range(9)]), True, full)
    for name, puzzle in sparse_boards(full, random.Random(SPARSE_SEED)):
        add(name, puzzle, False)
    add("14-two-bands-given", full[:54] + [0] * 27, False)
    swap = _two_solution_board(full)
    add("15-two-solutions-rectangle", swap, False)
    other = random_solution(rng)
    add("16-half-blank-many-solutions", without(rng.sample(range(81), 50), other), False)
    for index, blanks in enumerate((20, 35, 50), start=17):
        solution = random_symmetry(rng)(random_solution(rng))
        add(f"{index}-unique-{blanks}-blanks", blank_randomly(solution, blanks, rng), True, solution)
    for level, (puzzle, solution) in enumerate(graded_puzzles(rng), start=1):
        add(f"{19 + level}-unique-level-{level:02d}", puzzle, True, solution)
    return tests


def sparse_boards(full: Grid, rng: random.Random) -> list[tuple[str, Grid]]:
    """Tests 09-13: open boards with many solutions whose search to the end still fits the validator's bound.

    Four are whole rows and boxes blanked out of `full`; in 12 the digits are renamed (which keeps its
    million partial fillings, but moves where the first solution falls) until the search to the end fits.
    The last blanks a random solution's cells in a random order, as many as fit.
    """
    top_four_rows, bottom_four_rows = list(range(36)), list(range(45, 81))
    boxes = [[cell for cell in range(81) if BOX[cell] == box] for box in range(9)]
    corner_and_centre_boxes = [cell for box in (0, 2, 4, 6, 8) for cell in boxes[box]]
    bottom_rows_and_top_right_box = blank_cells(full, bottom_four_rows + boxes[2])
    for _attempt in range(RELABEL_ATTEMPTS):
        renamed = random_relabelling(rng)(bottom_rows_and_top_right_box)
        if fits(renamed, SPARSE_FULL_CALLS):
            break
    else:
        raise AssertionError("no renaming of the digits fits; pick another SPARSE_SEED")
    other = random_solution(rng)
    order = list(range(81))
    rng.shuffle(order)
    return [
        ("09-blank-top-four-rows", blank_cells(full, top_four_rows)),
        ("10-blank-bottom-four-rows", blank_cells(full, bottom_four_rows)),
        ("11-blank-corner-and-centre-boxes", blank_cells(full, corner_and_centre_boxes)),
        ("12-blank-bottom-four-rows-and-top-right-box", renamed),
        ("13-sparse-scattered-clues", blank_while_it_fits(other, order, SPARSE_FULL_CALLS)),
    ]


def fits(puzzle: Grid, full_calls: int) -> bool:
    """Both searches stay within bounds: the first solution within CALL_LIMIT, the whole tree within `full_calls`."""
    return backtrack(puzzle)[0] <= CALL_LIMIT and full_search(puzzle, limit=full_calls) <= full_calls


def blank_while_it_fits(solution: Grid, order: list[int], full_calls: int) -> Grid:
    """Blank the first cells of `order`, as many as `fits` allows. Found by bisection on how many: more
    blanks mostly mean a bigger tree, and whatever count it settles on is checked, not assumed."""
    fitting, failing = 0, len(order) + 1
    while failing - fitting > 1:
        middle = (fitting + failing) // 2
        if fits(blank_cells(solution, order[:middle]), full_calls):
            fitting = middle
        else:
            failing = middle
    return blank_cells(solution, order[:fitting])


def blank_cells(grid: Grid, cells: list[int]) -> Grid:
    blanks = set(cells)
    return [0 if cell in blanks else digit for cell, digit in enumerate(grid)]


def random_relabelling(rng: random.Random) -> Callable[[Grid], Grid]:
    """Rename the digits at random: every count of solutions and of partial fillings stays the same."""
    digits = list(range(1, 10))
    rng.shuffle(digits)
    relabel = [0, *digits]
    return lambda grid: [relabel[digit] for digit in grid]


def _two_solution_board(full: Grid) -> Grid:
    """Blank the first rectangle of four cells (two rows in one band, two columns) whose digits can swap."""
    for row_a in range(9):
        for row_b in range(row_a + 1, (row_a // 3) * 3 + 3):
            for col_a in range(9):
                for col_b in range(col_a + 1, 9):
                    a, b = row_a * 9, row_b * 9
                    if full[a + col_a] == full[b + col_b] and full[a + col_b] == full[b + col_a]:
                        cells = [a + col_a, a + col_b, b + col_a, b + col_b]
                        return [0 if cell in cells else digit for cell, digit in enumerate(full)]
    raise AssertionError("no swappable rectangle; pick another seed")


def render(grid: Grid) -> str:
    return "".join(" ".join(str(digit) for digit in grid[row * 9 : row * 9 + 9]) + "\n" for row in range(9))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=Path(__file__).resolve().parent / "tests")
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    for name, puzzle, answer, unique in build_tests():
        data = render(puzzle).encode()
        counts = validate(data)  # raises if a test breaks the problem's promise or the second bound
        solutions = count_solutions(puzzle)
        if unique != (solutions == 1) or any(p and p != a for p, a in zip(puzzle, answer)) or 0 in answer:
            raise AssertionError(f"{name}: generated test is not what its name promises")
        (args.out / f"{name}.in").write_bytes(data)
        (args.out / f"{name}.ans").write_bytes(render(answer).encode())
        kind = "unique" if solutions == 1 else "many solutions"
        print(f"{name}: calls={counts.first} full_calls={counts.full} {kind}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
