"""The text report's rows without rich: columns aligned by display width (Korean takes two columns), styles only on
a colour terminal."""

from __future__ import annotations

import io

import pytest

from judge.reporters.terminal_text import (
    Cell,
    Column,
    counted,
    cut_to_width,
    display_width,
    row_line,
    styled,
    wants_colour,
)

COLUMNS = (Column("test"), Column("CPU s", "right"), Column("message"))


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_columns_line_up_whatever_the_characters() -> None:
    widths = (7, 6, 0)
    lines = [row_line(COLUMNS, widths, row, colour=False) for row in (
        [Cell("test"), Cell("CPU s"), Cell("message")],
        [Cell("sample1"), Cell("0.018"), Cell("ok")],
        [Cell("한글"), Cell("10.250"), Cell("틀렸습니다")],
    )]
    assert lines == ["test      CPU s  message", "sample1   0.018  ok", "한글     10.250  틀렸습니다"]


def test_a_style_adds_no_width() -> None:
    plain = row_line(COLUMNS, (4, 5, 0), [Cell("1"), Cell("0.1", "green"), Cell("")], colour=False)
    coloured = row_line(COLUMNS, (4, 5, 0), [Cell("1"), Cell("0.1", "green"), Cell("")], colour=True)
    assert plain == "1       0.1"
    assert coloured == "1       \x1b[32m0.1\x1b[0m"


def test_styles_only_on_a_colour_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("FORCE_COLOR", "NO_COLOR", "TERM"):
        monkeypatch.delenv(name, raising=False)
    assert not wants_colour(io.StringIO())
    assert wants_colour(Terminal())
    monkeypatch.setenv("NO_COLOR", "1")
    assert not wants_colour(Terminal())
    monkeypatch.delenv("NO_COLOR")
    monkeypatch.setenv("FORCE_COLOR", "1")
    assert wants_colour(io.StringIO())
    assert styled("AC", "bold green", True) == "\x1b[1;32mAC\x1b[0m"
    assert styled("AC", "bold green", False) == "AC"
    assert styled("a\nb", "dim", True) == "\x1b[2ma\x1b[0m\n\x1b[2mb\x1b[0m"


@pytest.mark.parametrize(("text", "cells", "shown"), [
    ("running test 1", 40, "running test 1"),
    ("running test 1", 10, "running t…"),
    ("테스트 12345", 6, "테스…"),  # a wide character is two columns, never half of one
    ("테스트", 4, "테…"),
    ("abc", 1, "…"),
])
def test_text_is_cut_to_the_columns_it_may_take(text: str, cells: int, shown: str) -> None:
    assert cut_to_width(text, cells) == shown
    assert display_width(cut_to_width(text, cells)) <= cells


def test_a_count_of_one_takes_the_singular() -> None:
    assert [counted(number, "problem") for number in (0, 1, 2)] == ["0 problems", "1 problem", "2 problems"]
