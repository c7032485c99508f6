"""A problem's page: its statement rendered to HTML, its limits per language, its samples.

The statement is our layout's statement.md, else a problem package's Markdown statement (`problem_statement/`
in the legacy format, `statement/` in 2023-07's; English `problem.en.md` first, then `problem.md`). A package
whose statement is only LaTeX gets one line saying so: rendering LaTeX would take a TeX toolchain or a script
from elsewhere, and the page must work offline with no script but ours. Markdown is rendered by markdown-it-py
with raw HTML off (a `<script>` in a statement is shown as text) and its own link check (no `javascript:`
links); its `$...$` and `$$...$$` math becomes MathML on the server (mathml.py); nothing is fetched from
anywhere, so the page works offline.

Images: a relative image path in the statement (`![graph](graph.png)`, as packages put figures beside their
problem.en.md) is served from the statement's own folder by `statement_image`, for raster formats only; an SVG
is a document that can carry script, so it is not served, and an image from another site (which the page's
Content-Security-Policy would block anyway) is shown as its alt text. A figure is served only when it is a real
file there, reached through no link (a link, even one to a file inside the problem, could be a hidden test's
answer), whose first bytes are those of the format its name says.
"""

from __future__ import annotations

import os
from functools import lru_cache
from pathlib import Path, PurePosixPath
from typing import Any
from urllib.parse import quote

from markdown_it import MarkdownIt
from markdown_it.renderer import RendererHTML
from markdown_it.token import Token
from markdown_it.utils import OptionsDict
from mdit_py_plugins.dollarmath import dollarmath_plugin
from msgspec import Struct

from judge.errors import SpecError
from judge.intake import Refused, read_source
from judge.judging.limit_policy import effective_limits, limits_note
from judge.languages.catalog import LANGUAGES
from judge.problems.files import read_problem_file
from judge.problems.model import Problem
from judge.serve.mathml import latex_to_mathml

STATEMENT_FILE = "statement.md"
PACKAGE_STATEMENT_FOLDERS = ("problem_statement", "statement")
PACKAGE_STATEMENTS = ("problem.en.md", "problem.md")
STATEMENT_LIMIT_BYTES = 1024 * 1024
SAMPLE_LIMIT_BYTES = 64 * 1024
IMAGE_LIMIT_BYTES = 4 * 1024 * 1024
IMAGE_TYPES = {
    ".png": "image/png",
    ".jpg": "image/jpeg",
    ".jpeg": "image/jpeg",
    ".gif": "image/gif",
    ".webp": "image/webp",
}
"""The raster formats a statement's figures come in, by extension; nothing else in the folder is ever served."""
IMAGE_SIGNATURES = {
    "image/png": (b"\x89PNG\r\n\x1a\n",),
    "image/jpeg": (b"\xff\xd8\xff",),
    "image/gif": (b"GIF87a", b"GIF89a"),
    "image/webp": (b"RIFF",),
}
"""How each format's file begins (WebP's RIFF header also says WEBP at byte 8): a file named .png that is not one
(a test's answer renamed or hard-linked) is not served."""


class LanguageLimits(Struct, frozen=True):
    language: str
    cpu_seconds: float
    memory_mib: int
    note: str
    """How BOJ's allowance derived them, as `judge run` prints it (empty: the problem's own limits)."""


class Sample(Struct, frozen=True):
    name: str
    input: str
    answer: str


class StatementPage(Struct, frozen=True):
    html: str
    """Rendered by markdown-it with raw HTML escaped: safe to insert as markup."""
    limits: tuple[LanguageLimits, ...]
    samples: tuple[Sample, ...]
    """The samples the statement does not already show in its own code blocks (BOJ-style statements write them)."""


@lru_cache(maxsize=1)
def _markdown() -> MarkdownIt:
    markdown = MarkdownIt("commonmark", {"html": False, "linkify": False}).enable("table")
    dollarmath_plugin(  # `$...$` and `$$...$$` as MathML (mathml.py); "$5 and $10" stays text
        markdown,
        allow_labels=False,
        allow_digits=False,
        renderer=lambda latex, options: latex_to_mathml(latex, display=bool(options.get("display_mode"))),
    )
    markdown.add_render_rule("image", _render_image)
    return markdown


def _render_image(self: RendererHTML, tokens: list[Token], index: int, options: OptionsDict, env: Any) -> str:
    """An image whose path is a local figure of the statement points at `statement_image`'s route
    (`env["images"]`, the problem's URL prefix); any other image is its alt text."""
    token = tokens[index]
    name = image_name(str(token.attrGet("src") or ""))
    if name is None or "images" not in env:
        return self.renderInline(token.children or [], options, env)
    token.attrSet("src", env["images"] + quote(name))
    token.attrSet("alt", self.renderInlineAsText(token.children or [], options, env))
    return self.renderToken(tokens, index, options, env)


def image_name(src: str) -> str | None:
    """`src` as a figure's path inside the statement's folder (`graph.png`, `img/graph.png`), or None: a URL, an
    absolute path, a step up or into a hidden file, or a format that is not in IMAGE_TYPES."""
    if not src or ":" in src or src.startswith("/") or "\\" in src:
        return None
    path = PurePosixPath(src)
    if any(part in ("", ".", "..") or part.startswith(".") for part in path.parts):
        return None
    return str(path) if path.suffix.lower() in IMAGE_TYPES else None


def statement_file(problem: Problem) -> Path | None:
    """The statement's Markdown file: our statement.md, else a package's problem.en.md or problem.md."""
    candidates = [
        problem.root / STATEMENT_FILE,
        *(problem.root / folder / name for folder in PACKAGE_STATEMENT_FOLDERS for name in PACKAGE_STATEMENTS),
    ]
    return next((path for path in candidates if os.path.lexists(path)), None)


def statement_image(problem: Problem, name: str) -> tuple[bytes, str] | None:
    """A figure of the statement (its bytes and media type), read from the statement's own folder without
    following any link from the problem's folder down (judge.intake), under a size limit, and in the format its
    name says; None when there is no such figure."""
    statement = statement_file(problem)
    checked = image_name(name)
    if statement is None or checked is None:
        return None
    try:
        content = read_source(statement.parent / checked, IMAGE_LIMIT_BYTES, inside=problem.root, what="figure")
    except Refused:
        return None
    media_type = IMAGE_TYPES[PurePosixPath(checked).suffix.lower()]
    if not content.startswith(IMAGE_SIGNATURES[media_type]) or (
        media_type == "image/webp" and content[8:12] != b"WEBP"
    ):
        return None
    return content, media_type


def statement_markdown(problem: Problem) -> str:
    """The statement's Markdown, or one line saying why there is none to show."""
    path = statement_file(problem)
    if path is not None:
        try:
            return read_problem_file(path, problem.root, STATEMENT_LIMIT_BYTES).decode("utf-8", "replace")
        except (SpecError, OSError):
            return f"*This problem's statement ({path.relative_to(problem.root)}) could not be read.*"
    latex = _latex_statement(problem.root)
    if latex is not None:
        return (
            f"*This problem's statement is LaTeX only ({latex}), which this server does not render; "
            "ask your teacher for it.*"
        )
    return f"*This problem has no statement ({STATEMENT_FILE}, or a package's problem.en.md).*"


def _latex_statement(root: Path) -> str | None:
    """A package's LaTeX statement file (`problem_statement/problem.en.tex` ...), as a path inside `root`."""
    for folder in PACKAGE_STATEMENT_FOLDERS:
        try:
            names = sorted(os.listdir(root / folder))
        except OSError:
            continue
        for name in names:
            if name.startswith("problem") and name.endswith(".tex"):
                return f"{folder}/{name}"
    return None


def statement_page(problem: Problem) -> StatementPage:
    text = statement_markdown(problem)
    limits = []
    for language in LANGUAGES.values():
        given = effective_limits(problem.spec, language)
        limits.append(
            LanguageLimits(language.display, given.time_seconds, given.memory_mib, limits_note(problem.spec, language))
        )
    shown = _code_blocks(text)
    samples = tuple(
        sample
        for test in problem.tests
        if test.is_sample
        for sample in [Sample(test.name, _text(test.input_path.read_bytes()), _text(test.answer_path.read_bytes()))]
        if not {_same_text(sample.input), _same_text(sample.answer)} <= shown
    )
    images = f"/problems/{quote(problem.id, safe='')}/statement/"
    return StatementPage(_markdown().render(text, {"images": images}), tuple(limits), samples)


def _code_blocks(markdown: str) -> set[str]:
    """The text of every code block of a statement, as `_same_text` compares it."""
    return {_same_text(token.content) for token in _markdown().parse(markdown) if token.type in ("fence", "code_block")}


def _same_text(text: str) -> str:
    """Text as a reader compares a sample with its copy in the statement: without trailing spaces or blank lines."""
    return "\n".join(line.rstrip() for line in text.strip("\n").splitlines())


def _text(content: bytes) -> str:
    shown = content[:SAMPLE_LIMIT_BYTES].decode("utf-8", "replace")
    return shown + ("\n[...]" if len(content) > SAMPLE_LIMIT_BYTES else "")
