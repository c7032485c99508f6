"""LaTeX math of a statement (`$1 \\le N \\le 10^5$`, `$$...$$`) as MathML, on the server: Chromium and Firefox draw
MathML Core natively, so the page needs no script, no font and nothing from elsewhere (the CSP stays as strict).

latex2mathml turns the LaTeX into an element tree; its text is not escaped (`\\text{<b>}` stays `<b>`) and it
passes `\\href` and `\\style` through as attributes, so the tree is written out here, element by element: MathML
elements and presentation attributes only, every text and value escaped. LaTeX it cannot read is shown as its
source, as code.
"""

from __future__ import annotations

import html
import re
from xml.etree.ElementTree import Element

from latex2mathml.converter import convert_to_element

ELEMENTS = frozenset(
    [
        "math",
        "mrow",
        "mi",
        "mn",
        "mo",
        "ms",
        "mtext",
        "mspace",
        "msub",
        "msup",
        "msubsup",
        "munder",
        "mover",
        "munderover",
        "mfrac",
        "msqrt",
        "mroot",
        "mstyle",
        "mpadded",
        "mphantom",
        "merror",
        "mtable",
        "mtr",
        "mtd",
        "mmultiscripts",
        "mprescripts",
        "none",
        "semantics",
    ]
)
"""MathML Core's presentation elements; any other (a `<script>` typed in `\\text{}`) is left out, its text kept."""
ATTRIBUTES = frozenset(
    [
        "display",
        "displaystyle",
        "scriptlevel",
        "mathvariant",
        "stretchy",
        "fence",
        "separator",
        "lspace",
        "rspace",
        "accent",
        "accentunder",
        "linethickness",
        "columnalign",
        "rowalign",
        "columnspacing",
        "rowspacing",
        "columnlines",
        "rowlines",
        "frame",
        "width",
        "height",
        "depth",
        "voffset",
        "minsize",
        "maxsize",
        "movablelimits",
        "largeop",
        "symmetric",
        "form",
        "columnspan",
        "rowspan",
    ]
)
"""Presentation attributes; never `href`, `style`, an event handler or a namespace."""
_CHARACTER_REFERENCE = re.compile(r"&#x([0-9A-Fa-f]{1,6});")


def latex_to_mathml(latex: str, *, display: bool) -> str:
    """`latex` as a `<math>` element (a block for `$$...$$`), or its source as code when it does not convert."""
    try:
        tree = convert_to_element(latex, display="block" if display else "inline")
    except Exception:  # noqa: BLE001 -- malformed LaTeX raises a dozen unrelated errors; the source is shown
        return f'<code class="math-source">{html.escape(latex)}</code>'
    return _written(tree)


def _written(element: Element) -> str:
    tag = element.tag.rpartition("}")[2]
    inner = _text(element.text) + "".join(_written(child) + _text(child.tail) for child in element)
    if tag not in ELEMENTS:
        return inner
    attributes = "".join(
        f' {name}="{html.escape(value, quote=True)}"' for name, value in element.attrib.items() if name in ATTRIBUTES
    )
    return f"<{tag}{attributes}>{inner}</{tag}>"


def _text(text: str | None) -> str:
    """latex2mathml's text (symbols as `&#x02264;`, what `\\text{}` held as typed), escaped for the page."""
    if not text:
        return ""
    return html.escape(_CHARACTER_REFERENCE.sub(_character, text), quote=False)


def _character(reference: re.Match[str]) -> str:
    """The character a reference names; U+FFFD for a surrogate or past Unicode (the page must encode as UTF-8)."""
    code = int(reference.group(1), 16)
    return chr(code) if code <= 0x10FFFF and not 0xD800 <= code <= 0xDFFF else "\ufffd"
