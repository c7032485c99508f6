"""The one HTML engine of the judge: every page it writes is a Jinja2 template rendered by an `environment`
made here (the gradebook's report.html and its plots, similarity.html, and `judge serve`'s pages; serve/ sits
above reporters/ and imports it).

Autoescaping is on, and every `{{ value }}` first passes `judge.inert.html_text` (the environment's `finalize`):
text from a submission, a student or a problem reaches the page escaped, with its controls and invisible
characters shown as visible escapes, and a name that is not UTF-8 shown as `\\xNN` (a lone surrogate would
otherwise fail to encode). Only markup the judge made itself, a `Markup` (a macro's output, one rendered template
placed in another), is printed as it is. A template writes each number in the format it wants (`'%.3f' % x`).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from jinja2 import Environment, FileSystemLoader
from markupsafe import Markup

from judge.inert import html_text


def inert(value: Any) -> Any:
    """Every `{{ value }}`: markup we made stays markup, any other text is made inert (then autoescaped)."""
    if isinstance(value, Markup) or not isinstance(value, str):
        return value
    return Markup(html_text(value))


def environment(templates: Path) -> Environment:
    """An environment over the templates in the folder `templates`: autoescaping, `inert` as its finalizer, and
    a template's last newline kept (a page ends as its file does)."""
    return Environment(loader=FileSystemLoader(templates), autoescape=True, finalize=inert, keep_trailing_newline=True)
