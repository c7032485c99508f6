"""The bundled problems' simplifications: every candidate is a legal, smaller input (pure functions, no judging)."""

from __future__ import annotations

import importlib.util
from types import ModuleType

from conftest import ROOT


def strategy(problem: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(f"strategy_{problem}", ROOT / "problems" / problem / "strategy.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_sudoku_candidates_give_back_blanks_from_the_answer():
    sudoku = strategy("2580")
    tests = ROOT / "problems/2580/tests"
    text, answer = (tests / "09-blank-top-four-rows.in").read_text(), (tests / "09-blank-top-four-rows.ans").read_text()
    grid, solved = [int(t) for t in text.split()], [int(t) for t in answer.split()]
    candidates = list(sudoku.simplify(text, answer))
    assert len(candidates) == len(set(candidates)) > 36  # every blank can be given back on its own
    for candidate in candidates:
        cells = [int(t) for t in candidate.split()]
        assert sudoku.magnitude(candidate) < sudoku.magnitude(text)
        assert all(given == 0 or given == cell for given, cell in zip(grid, cells))  # clues kept
        assert all(cell in (0, right) for cell, right in zip(cells, solved))  # filled from the answer
        assert candidate == sudoku.render(cells)


def test_sudoku_one_blank_simplifies_to_the_full_board():
    sudoku = strategy("2580")
    answer = (ROOT / "problems/2580/tests/04-full-board.in").read_text()
    one_blank = "0" + answer[1:]
    assert list(sudoku.simplify(one_blank, answer)) == [answer]
    assert list(sudoku.simplify(answer, answer)) == []


def test_n_queen_candidates_are_every_smaller_n_smallest_first():
    queens = strategy("9663")
    assert list(queens.simplify("5\n", "10\n")) == ["1\n", "2\n", "3\n", "4\n"]
    assert queens.magnitude("12\n") == 12 and list(queens.simplify("1\n", "1\n")) == []
