"""The text report's table without rich: columns aligned by display width (Korean takes two columns), the message
folded to the line width, styles only on a colour terminal."""

from __future__ import annotations

import io

import pytest

from judge.reporters.terminal_text import Cell, Column, display_width, line_width, styled, table_lines, wants_colour

COLUMNS = (Column("test"), Column("CPU s", "right"), Column("message"))


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_columns_line_up_whatever_the_characters() -> None:
    rows = [[Cell("sample1"), Cell("0.018"), Cell("ok")], [Cell("한글"), Cell("10.250"), Cell("틀렸습니다")]]
    lines = table_lines(COLUMNS, rows, 100, colour=False)
    assert lines[0] == "test    ┃  CPU s ┃ message"
    assert lines[1] == "━━━━━━━━╇━━━━━━━━╇━━━━━━━━━━━"
    assert lines[2] == "sample1 │  0.018 │ ok"
    assert lines[3] == "한글    │ 10.250 │ 틀렸습니다"
    assert {display_width(line.split("│")[0]) for line in lines[2:]} == {8}


def test_a_long_message_folds_at_spaces_and_inside_long_words() -> None:
    message = "line 1, column 1: spacing differs from the expected output " + "x" * 30
    lines = table_lines(COLUMNS, [[Cell("1"), Cell("0.1"), Cell(message)]], 40, colour=False)
    assert all(display_width(line) <= 40 for line in lines)
    body = [line.split("│ ", 2)[2] for line in lines[2:]]
    assert body == ["line 1, column 1: spacing", "differs from the expected", "output", "x" * 25, "x" * 5]
    assert all(line.startswith("     │       │ ") for line in lines[3:])  # the other cells left blank


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


def test_the_line_width_is_at_least_100(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "60")
    assert line_width(io.StringIO()) == 100
    monkeypatch.setenv("COLUMNS", "160")
    assert line_width(io.StringIO()) == 160
    monkeypatch.delenv("COLUMNS")
    assert line_width(io.StringIO()) == 100
