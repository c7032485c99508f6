"""Text from a submission made inert for the medium it is shown in: terminal, CSV, XML, JSON, HTML.

Everything a submission prints or names (stdout, stderr, compiler messages, file and folder names) is hostile. A
terminal obeys escape sequences (clear the screen, set the title, write the clipboard with OSC 52, hide text); a
spreadsheet runs cells that start like a formula; XML 1.0 cannot hold most control characters; and names that are
not UTF-8 arrive as str with lone surrogates (os.fsdecode's surrogateescape), which no UTF-8 writer can encode.

One rule for every medium: a character that could act instead of being read, or that is not seen at all, is shown
as a visible escape (`\\x1b`, `\\x9b`, `\\u202e`, `\\u200b`), and a byte that was not UTF-8 is shown as `\\xNN`.
Nothing is silently dropped, so a student sees that their program printed an escape sequence, and two names that
differ only by an invisible character (`alice` and `alice` + U+200B ZERO WIDTH SPACE) never look the same. Every
escape sequence (CSI, OSC, DCS, SOS, PM, APC, lone ESC, and their C1 forms) starts with ESC or a C1 control, so
escaping those characters disarms the whole sequence without parsing it; the rest of the sequence stays as plain text.

Which characters is decided by Unicode's General Category, not a hand list, so what a newer Unicode adds to a
category is covered by the Python that knows it. Every category of Unicode's "Other" group, tab and newline
excepted: Cc (C0, DEL, C1), Cf (format: bidi controls, zero-width space and joiners, word joiner, invisible
operators, soft hyphen, byte order mark, tags), Cs (surrogates), Co (private use: a glyph only some fonts have, and
boxes that look alike in the others) and Cn (unassigned, and non-characters such as U+FFFE, which a terminal may draw
as nothing and XML cannot hold); and Zl, Zp (U+2028, U+2029: a line break to some readers, nothing to others).
Beyond the categories, the few Default_Ignorable_Code_Point characters of Unicode that are marks or letters
(`_INVISIBLE_MARKS_AND_LETTERS`: variation selectors, Hangul fillers). Spaces (Zs) stay: they are seen as spaces.
The price: text that uses such characters on purpose (an emoji's U+FE0F or U+200D, a Persian U+200C) shows them
escaped too; a name or an output that differs from another by them should look different.

Rich: `for_terminal` returns plain text, not markup. Print it through rich as `rich.text.Text(...)` or with
`markup=False`, never inside an f-string given to `console.print` with markup on; plain `click.echo` is fine.
"""

from __future__ import annotations

import json
import re
import unicodedata
from typing import Any

_HIDDEN_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})
"""General Categories shown escaped (see the module's docstring); tab and newline are the exceptions."""

_INVISIBLE_MARKS_AND_LETTERS = (
    frozenset({0x034F, 0x115F, 0x1160, 0x17B4, 0x17B5, 0x180B, 0x180C, 0x180D, 0x180F, 0x3164, 0xFFA0})
    | frozenset(range(0xFE00, 0xFE10))
    | frozenset(range(0xE0100, 0xE01F0))
)
"""Unicode's Default_Ignorable_Code_Point characters outside the categories above (DerivedCoreProperties.txt):
the combining grapheme joiner, Hangul fillers, Khmer inherent vowels, Mongolian and other variation selectors.
A terminal draws them as nothing (a Hangul filler as a blank), so `alice` + one of them looks like `alice`."""

_MAYBE_HIDDEN = re.compile(r"[^\t\n\x20-\x7e]")
"""Every character but printable ASCII, tab and newline: only these need the category look-up."""

_FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
"""OWASP CSV injection: a spreadsheet treats a cell starting with one of these as a formula."""


def _escaped(char: str) -> str:
    """The visible form of one character: `\\xNN` for a surrogate-escaped byte or a code point below 0x100, else
    `\\uNNNN` or `\\UNNNNNNNN` as Python writes it."""
    code = ord(char)
    if 0xDC80 <= code <= 0xDCFF:
        return f"\\x{code - 0xDC00:02x}"
    if code < 0x100:
        return f"\\x{code:02x}"
    return f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}"


def _shown(match: re.Match[str]) -> str:
    """A character as a medium may show it: escaped when a medium could act on it, fail to hold it, or not show it."""
    char = match.group()
    if unicodedata.category(char) in _HIDDEN_CATEGORIES or ord(char) in _INVISIBLE_MARKS_AND_LETTERS:
        return _escaped(char)
    return char


def _visible(text: str) -> str:
    """Every control, format, invisible or unassigned character except newline and tab, and every lone surrogate,
    as a visible escape.

    Windows line ends become newlines first, so a CRLF file does not show `\\x0d` on every line.
    """
    return _MAYBE_HIDDEN.sub(_shown, text.replace("\r\n", "\n"))


def for_terminal(text: str) -> str:
    """Plain text that a terminal only displays: no escape sequence, no control except newline and tab.

    The result is not rich markup: print it as `Text(for_terminal(x))` or with `markup=False`.
    """
    return _visible(text)


def csv_cell(text: str) -> str:
    """A CSV text cell a spreadsheet shows as text: a leading quote before a formula start (OWASP), controls escaped.

    Only for text from submissions, paths, names and messages; numeric columns must stay numbers.
    """
    return ("'" if text.startswith(_FORMULA_STARTS) else "") + _visible(text)


def xml_text(text: str) -> str:
    """Text XML 1.0 can hold (it has no way to write most C0 controls, surrogates, U+FFFE or U+FFFF, even as
    character references). The XML writer still escapes `&`, `<` and `>`."""
    return _visible(text)


def html_text(text: str) -> str:
    """Text safe inside an HTML element or a quoted attribute, encodable as UTF-8."""
    import html  # noqa: PLC0415 -- only the gradebook's page needs it, not every `judge run`

    return html.escape(_visible(text), quote=True)


def json_document(data: Any, indent: int | None = 2) -> str:
    """JSON that is valid and pure ASCII: controls and lone surrogates become `\\u001b`, `\\udcff` escapes.

    `ensure_ascii` is what makes this safe: the text never carries a raw control byte to a terminal that `cat`s
    the file, and a lone surrogate can never raise UnicodeEncodeError when the file is written. `allow_nan=False`:
    JSON has no NaN or Infinity, so a non-finite number is the judge's bug (ValueError), never a bare `NaN`.
    """
    return json.dumps(data, ensure_ascii=True, indent=indent, allow_nan=False)
