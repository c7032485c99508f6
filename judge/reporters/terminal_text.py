"""Plain terminal text for `judge run`: styles as ANSI codes (only on a colour terminal) and a table drawn as rich
draws one (heavy head, light body, no outer edge), without importing rich, which cost `judge run` about 35 ms.

Cells must already be inert (judge/inert.py `for_terminal`): this module adds escape sequences of its own only.
"""

from __future__ import annotations

import os
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal, TextIO

SGR = {"bold": "1", "dim": "2", "red": "31", "green": "32", "yellow": "33", "blue": "34", "magenta": "35"}
"""The words of a style (`Verdict.colour`, "bold yellow") as Select Graphic Rendition codes."""
MIN_WIDTH = 100
"""The report is never laid out narrower than this, as before: a pipe gets the same lines as a wide terminal."""


@dataclass(frozen=True)
class Cell:
    """One table cell: inert text and the style it is shown in on a colour terminal."""

    text: str
    style: str = ""


@dataclass(frozen=True)
class Column:
    title: str
    justify: Literal["left", "right"] = "left"


def wants_colour(stream: TextIO) -> bool:
    """Colour on a terminal, as rich decides: FORCE_COLOR forces it, NO_COLOR and TERM=dumb turn it off."""
    if os.environ.get("FORCE_COLOR"):
        return True
    if "NO_COLOR" in os.environ or os.environ.get("TERM") in ("dumb", "unknown"):
        return False
    return stream.isatty()


def line_width(stream: TextIO) -> int:
    """COLUMNS, else the terminal's width, else 80; never below MIN_WIDTH."""
    try:
        return max(MIN_WIDTH, int(os.environ["COLUMNS"]))
    except (KeyError, ValueError):
        pass
    try:
        return max(MIN_WIDTH, os.get_terminal_size(stream.fileno()).columns)
    except (AttributeError, OSError, ValueError):
        return MIN_WIDTH


def styled(text: str, style: str, colour: bool) -> str:
    """`text` in `style` when `colour`, else as it is; each line styled on its own, so a pager keeps the style."""
    codes = ";".join(SGR[word] for word in style.split() if word in SGR)
    if not colour or not codes or not text:
        return text
    return "\n".join(f"\x1b[{codes}m{line}\x1b[0m" if line else line for line in text.split("\n"))


def display_width(text: str) -> int:
    """Columns `text` takes on a terminal: two for wide (Korean, CJK) characters, none for combining marks."""
    return sum(0 if unicodedata.combining(char) else 2 if unicodedata.east_asian_width(char) in "WF" else 1
               for char in text)


def table_lines(columns: Sequence[Column], rows: Sequence[Sequence[Cell]], width: int, colour: bool) -> list[str]:
    """The table as lines: the last column folds (at spaces where it can) to keep each line within `width`."""
    rows = [[Cell(cell.text.expandtabs(4), cell.style) for cell in row] for row in rows]  # a tab has no one width
    widths = [max([display_width(column.title), *(display_width(row[index].text) for row in rows)])
              for index, column in enumerate(columns)]
    others = sum(widths[:-1]) + 3 * (len(columns) - 1)
    widths[-1] = max(min(widths[-1], width - others), display_width(columns[-1].title), 8)
    header = [Cell(column.title, "bold") for column in columns]
    lines = [_joined(columns, widths, [[cell] for cell in header], " ┃ ", colour)[0]]
    lines.append("━╇━".join("━" * width for width in widths))
    for row in rows:
        parts = [[cell] for cell in row[:-1]] + [[Cell(part, row[-1].style) for part in _fold(row[-1].text, widths[-1])]]
        lines += _joined(columns, widths, parts, " │ ", colour)
    return [line.rstrip() for line in lines]


def _joined(columns: Sequence[Column], widths: list[int], cells: list[list[Cell]], separator: str,
            colour: bool) -> list[str]:
    """One row as lines (more than one when a cell folded), every cell padded to its column's width."""
    height = max(len(parts) for parts in cells)
    lines = []
    for index in range(height):
        shown = []
        for column, width, parts in zip(columns, widths, cells):
            cell = parts[index] if index < len(parts) else Cell("")
            padding = " " * (width - display_width(cell.text))
            text = styled(cell.text, cell.style, colour)
            shown.append(padding + text if column.justify == "right" else text + padding)
        lines.append(separator.join(shown))
    return lines


def _fold(text: str, width: int) -> list[str]:
    """`text` in lines of at most `width` columns, broken at spaces, and inside words longer than a line."""
    lines: list[str] = []
    current = ""
    for word in text.split(" "):
        candidate = f"{current} {word}" if current else word
        if display_width(candidate) <= width:
            current = candidate
            continue
        if current:
            lines.append(current)
        current = ""
        for char in word:
            if display_width(current + char) > width:
                lines.append(current)
                current = ""
            current += char
    return [*lines, current]
