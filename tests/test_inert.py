"""Unit tests of judge.inert: hostile text in, text that each medium only displays out."""

from __future__ import annotations

import io
import json
import re
from xml.etree import ElementTree

import pytest
from rich.console import Console
from rich.text import Text

from judge.inert import csv_cell, for_terminal, html_text, json_document, xml_text

ESC = "\x1b"
NASTY = [
    # (id, text, what must be shown in its place)
    ("clear screen", f"{ESC}[2J{ESC}[H", "\\x1b[2J\\x1b[H"),
    ("colour", f"{ESC}[31mred{ESC}[0m", "\\x1b[31mred\\x1b[0m"),
    ("OSC 52 clipboard, BEL", f"{ESC}]52;c;ZWNobyBwd25lZA==\x07", "\\x1b]52;c;ZWNobyBwd25lZA==\\x07"),
    ("OSC 8 hyperlink, ST", f"{ESC}]8;;http://x{ESC}\\click{ESC}]8;;{ESC}\\",
     "\\x1b]8;;http://x\\x1b\\click\\x1b]8;;\\x1b\\"),
    ("window title", f"{ESC}]0;pwned\x07", "\\x1b]0;pwned\\x07"),
    ("C1 CSI", "\x9b2J", "\\x9b2J"),
    ("C1 OSC and ST", "\x9d0;title\x9c", "\\x9d0;title\\x9c"),
    ("DCS", f"{ESC}Pq#0;2;0;0;0{ESC}\\", "\\x1bPq#0;2;0;0;0\\x1b\\"),
    ("APC, PM, SOS", f"{ESC}_a{ESC}^b{ESC}Xc", "\\x1b_a\\x1b^b\\x1bXc"),
    ("lone ESC at the end", f"text{ESC}", "text\\x1b"),
    ("carriage return overwrites a line", "result: WA\rresult: AC", "result: WA\\x0dresult: AC"),
    ("backspace and bell", "A\x08\x07", "A\\x08\\x07"),
    ("DEL", "a\x7fb", "a\\x7fb"),
    ("bidi override", "abc\u202eevil", "abc\\u202eevil"),
    ("surrogate-escaped byte", "name\udcff", "name\\xff"),
    ("other lone surrogate", "x\ud800y", "x\\ud800y"),
]


def _has_control(text: str) -> bool:
    return re.search(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\ud800-\udfff\u202a-\u202e]", text) is not None


@pytest.mark.parametrize(("text", "shown"), [row[1:] for row in NASTY], ids=[row[0] for row in NASTY])
def test_terminal_shows_every_control_as_a_visible_escape(text: str, shown: str) -> None:
    assert for_terminal(text) == shown
    assert not _has_control(for_terminal(text))


def test_terminal_keeps_newlines_tabs_and_ordinary_unicode() -> None:
    assert for_terminal("a\tb\nc\r\nd é 한국어 ✓") == "a\tb\nc\nd é 한국어 ✓"


@pytest.mark.parametrize("markup", ["[/]", "[conceal]x[/conceal]", "[bold red]AC[/]", "[link=http://x]y[/link]"])
def test_terminal_text_printed_as_rich_text_shows_markup_literally(markup: str) -> None:
    """The rule: `for_terminal` gives plain text, and callers hand it to rich as `Text`, never as markup."""
    output = io.StringIO()
    Console(file=output, force_terminal=True, color_system=None, width=200).print(Text(for_terminal(markup)))
    assert output.getvalue() == markup + "\n"


@pytest.mark.parametrize(("text", "cell"), [
    ('=HYPERLINK("http://x","y")', '\'=HYPERLINK("http://x","y")'),
    ("+1+1", "'+1+1"),
    ("-2+3", "'-2+3"),
    ("@SUM(A1)", "'@SUM(A1)"),
    ("\t=1", "'\t=1"),
    ("\r=1", "'\\x0d=1"),
    ("alice", "alice"),
    ("a=b", "a=b"),
    ("kim\udcff", "kim\\xff"),
    ("", ""),
])
def test_csv_cells_that_look_like_formulas_start_with_a_quote(text: str, cell: str) -> None:
    assert csv_cell(text) == cell


@pytest.mark.parametrize("text", [row[1] for row in NASTY] + ["\x00\x01\x0b\x0c\ufffe\uffff", "<a>&amp;\"'"])
def test_xml_text_always_round_trips_through_an_xml_parser(text: str) -> None:
    element = ElementTree.Element("failure", message=xml_text(text))
    element.text = xml_text(text)
    parsed = ElementTree.fromstring(ElementTree.tostring(element, encoding="unicode"))
    assert parsed.text == xml_text(text)
    assert not _has_control(parsed.text or "")


def test_xml_text_escapes_what_xml_cannot_hold() -> None:
    assert xml_text("a\x00b\ufffec\udcffd") == "a\\x00b\\ufffec\\xffd"
    assert xml_text("line\n\tnext") == "line\n\tnext"


def test_html_text_is_escaped_and_encodable() -> None:
    shown = html_text(f"<script>alert(1)</script>{ESC}[2J\"'&\udcff")
    assert shown == "&lt;script&gt;alert(1)&lt;/script&gt;\\x1b[2J&quot;&#x27;&amp;\\xff"
    shown.encode("utf-8")


def test_json_document_is_ascii_valid_and_round_trips() -> None:
    data = {"path": "kim\udcff/[/]", "stderr": f"{ESC}]52;c;eA==\x07\x9b2J", "n": 3}
    document = json_document(data)
    assert document.isascii()
    assert "\\udcff" in document and "\\u001b" in document and "\\u009b" in document
    assert json.loads(document) == data


INVISIBLE = [
    # (id, text, what must be shown in its place): characters a terminal, a spreadsheet or a browser draws as nothing
    ("zero width space", "alice\u200b", "alice\\u200b"),
    ("zero width joiners and marks", "a\u200cb\u200dc\u200ed\u200f", "a\\u200cb\\u200dc\\u200ed\\u200f"),
    ("word joiner, invisible operators", "a\u2060\u2061\u2062\u2063\u2064", "a\\u2060\\u2061\\u2062\\u2063\\u2064"),
    ("byte order mark inside", "al\ufeffice", "al\\ufeffice"),
    ("soft hyphen", "ali\u00adce", "ali\\xadce"),
    ("Arabic letter mark", "a\u061c", "a\\u061c"),
    ("tag characters", "alice\U000e0041\U000e007f", "alice\\U000e0041\\U000e007f"),
    ("line and paragraph separators", "a\u2028b\u2029", "a\\u2028b\\u2029"),
    ("variation selectors", "alice\ufe0f\U000e0100", "alice\\ufe0f\\U000e0100"),
    ("Hangul fillers", "alice\u3164\u115f\uffa0", "alice\\u3164\\u115f\\uffa0"),
    ("combining grapheme joiner", "a\u034fb", "a\\u034fb"),
    ("private use", "alice\ue000", "alice\\ue000"),
    ("unassigned", "alice\u0378", "alice\\u0378"),
    ("non-character", "a\ufdd0", "a\\ufdd0"),
]

MEDIA = [for_terminal, csv_cell, xml_text, html_text]


@pytest.mark.parametrize(("text", "shown"), [row[1:] for row in INVISIBLE], ids=[row[0] for row in INVISIBLE])
def test_invisible_and_format_characters_are_shown_escaped_in_every_medium(text: str, shown: str) -> None:
    for medium in MEDIA:
        assert medium(text) == shown, medium.__name__


def test_a_name_with_a_zero_width_space_never_looks_like_the_plain_name() -> None:
    """Distinct to the eye, not only to `!=`: the shown text holds no invisible character, and JSON escapes it."""
    for medium in MEDIA:
        shown = medium("alice\u200b")
        assert "\u200b" not in shown and shown == medium("alice") + "\\u200b", medium.__name__
    assert json_document("alice\u200b") == '"alice\\u200b"'


@pytest.mark.parametrize("text", [
    "é 한국어 ✓ ❤ naïve", "cafe\u0301",  # a combining accent is seen, and stays
    "choi 민준 ñ Ω ж ع ש", "\u00a0non-breaking\u3000ideographic space",  # spaces are seen as spaces
    "𝔘𝔫𝔦𝔠𝔬𝔡𝔢 \U0001f600",  # astral letters and an emoji without a selector
])
def test_visible_unicode_is_left_as_it_is(text: str) -> None:
    for medium in (for_terminal, csv_cell, xml_text):
        assert medium(text) == text, medium.__name__
