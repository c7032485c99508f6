"""Plain terminal text for `judge run`: styles as ANSI codes (only on a colour terminal) and table rows aligned by
display width, printed one at a time as tests finish, without importing rich, which cost `judge run` about 35 ms.

Cells must already be inert (judge/inert.py `for_terminal`): this module adds escape sequences of its own only.
"""

from __future__ import annotations

import os
import shutil
import unicodedata
from collections.abc import Sequence
from typing import Literal, TextIO

from msgspec import Struct

SGR = {"bold": "1", "dim": "2", "red": "31", "green": "32", "yellow": "33", "blue": "34", "magenta": "35"}
"""The words of a style (`Verdict.colour`, "bold yellow") as Select Graphic Rendition codes."""


class Cell(Struct, frozen=True):
    """One table cell: inert text and the style it is shown in on a colour terminal."""

    text: str
    style: str = ""


class Column(Struct, frozen=True):
    title: str
    justify: Literal["left", "right"] = "left"


def wants_colour(stream: TextIO) -> bool:
    """Colour on a terminal, as rich decides: FORCE_COLOR forces it, NO_COLOR and TERM=dumb turn it off."""
    if os.environ.get("FORCE_COLOR"):
        return True
    if "NO_COLOR" in os.environ or os.environ.get("TERM") in ("dumb", "unknown"):
        return False
    return stream.isatty()


def styled(text: str, style: str, colour: bool) -> str:
    """`text` in `style` when `colour`, else as it is; each line styled on its own, so a pager keeps the style."""
    codes = ";".join(SGR[word] for word in style.split() if word in SGR)
    if not colour or not codes or not text:
        return text
    return "\n".join(f"\x1b[{codes}m{line}\x1b[0m" if line else line for line in text.split("\n"))


def display_width(text: str) -> int:
    """Columns `text` takes on a terminal: two for wide (Korean, CJK) characters, none for combining marks."""
    return sum(
        0 if unicodedata.combining(char) else 2 if unicodedata.east_asian_width(char) in "WF" else 1 for char in text
    )


def counted(number: int, noun: str) -> str:
    """`1 problem`, `2 problems`: a count with its noun (one whose plural adds an s)."""
    return f"{number} {noun}" if number == 1 else f"{number} {noun}s"


def cut_to_width(text: str, cells: int) -> str:
    """`text` in at most `cells` terminal columns, ending in "…" when cut (a wide character counts two): a line
    wider than the terminal wraps, and a status line erased with one carriage return must stay one line."""
    if display_width(text) <= cells:
        return text
    kept, used = [], 1  # the ellipsis's column
    for char in text:
        used += display_width(char)
        if used > cells:
            break
        kept.append(char)
    return "".join(kept) + "…" if cells > 0 else ""


def terminal_columns(stream: TextIO) -> int:
    """The width of the terminal `stream` writes to; else COLUMNS, else 80 (as `shutil.get_terminal_size`)."""
    try:
        return os.get_terminal_size(stream.fileno()).columns
    except (AttributeError, OSError, ValueError):
        return shutil.get_terminal_size().columns


def row_line(
    columns: Sequence[Column], widths: Sequence[int], cells: Sequence[Cell], colour: bool, separator: str = "  "
) -> str:
    """One table row as a line, each cell padded to its column's width (a wider cell pushes the rest right)."""
    shown = []
    for column, width, cell in zip(columns, widths, cells, strict=True):
        padding = " " * (width - display_width(cell.text))
        text = styled(cell.text, cell.style, colour)
        shown.append(padding + text if column.justify == "right" else text + padding)
    return separator.join(shown).rstrip()
