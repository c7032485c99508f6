"""Text from a submission made inert for the medium it is shown in: terminal, CSV, XML, JSON, HTML.

Everything a submission prints or names (stdout, stderr, compiler messages, file and folder names) is hostile. A
terminal obeys escape sequences (clear the screen, set the title, write the clipboard with OSC 52, hide text); a
spreadsheet runs cells that start like a formula; XML 1.0 cannot hold most control characters; and names that are
not UTF-8 arrive as str with lone surrogates (os.fsdecode's surrogateescape), which no UTF-8 writer can encode.

One rule for every medium: a character that could act instead of being read is shown as a visible escape
(`\\x1b`, `\\x9b`, `\\u202e`), and a byte that was not UTF-8 is shown as `\\xNN`. Nothing is silently dropped, so a
student sees that their program printed an escape sequence. Every escape sequence (CSI, OSC, DCS, SOS, PM, APC,
lone ESC, and their C1 forms) starts with ESC or a C1 control, so escaping those characters disarms the whole
sequence without parsing it; the rest of the sequence stays as plain text.

Rich: `for_terminal` returns plain text, not markup. Print it through rich as `rich.text.Text(...)` or with
`markup=False`, never inside an f-string given to `console.print` with markup on; plain `click.echo` is fine.
"""

from __future__ import annotations

import json
from typing import Any

_BIDI_CONTROLS = frozenset(range(0x202A, 0x202F)) | frozenset(range(0x2066, 0x206A)) | {0x200E, 0x200F, 0x061C}
"""Bidirectional overrides reorder what is displayed (the "Trojan Source" trick), so a name could look harmless."""

_FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
"""OWASP CSV injection: a spreadsheet treats a cell starting with one of these as a formula."""


def _escaped(char: str) -> str:
    """The visible form of one character: `\\xNN` for a surrogate-escaped byte or a code point below 0x100."""
    code = ord(char)
    if 0xDC80 <= code <= 0xDCFF:
        return f"\\x{code - 0xDC00:02x}"
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def _is_active(code: int) -> bool:
    """True for what a medium could act on or fail to hold: C0 but newline and tab, DEL, C1, surrogates, bidi
    controls, the non-characters U+FFFE and U+FFFF."""
    if code in (0x0A, 0x09):
        return False
    return (code < 0x20 or 0x7F <= code <= 0x9F or 0xD800 <= code <= 0xDFFF or code in _BIDI_CONTROLS
            or code in (0xFFFE, 0xFFFF))


def _visible(text: str) -> str:
    """Every control character except newline and tab, and every lone surrogate, as a visible escape.

    Windows line ends become newlines first, so a CRLF file does not show `\\x0d` on every line.
    """
    text = text.replace("\r\n", "\n")
    return "".join(_escaped(char) if _is_active(ord(char)) else char for char in text)


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
