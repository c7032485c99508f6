"""A problem's page: its statement rendered to HTML, its limits per language, its samples.

The statement is our layout's statement.md, else a problem package's Markdown statement (`problem_statement/`
in the legacy format, `statement/` in 2023-07's; English `problem.en.md` first, then `problem.md`). A package
whose statement is only LaTeX gets one line saying so: rendering LaTeX would take a TeX toolchain or a script
from elsewhere, and the page must work offline with no script but ours. Markdown is rendered by markdown-it-py
with raw HTML off (a `<script>` in a statement is shown as text) and its own link check (no `javascript:`
links); nothing is fetched from anywhere, so the page works offline.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from markdown_it import MarkdownIt

from judge.errors import SpecError
from judge.judging.limit_policy import effective_limits, limits_note
from judge.languages.catalog import LANGUAGES
from judge.problems.files import read_problem_file
from judge.problems.model import Problem

STATEMENT_FILE = "statement.md"
PACKAGE_STATEMENT_FOLDERS = ("problem_statement", "statement")
PACKAGE_STATEMENTS = ("problem.en.md", "problem.md")
STATEMENT_LIMIT_BYTES = 1024 * 1024
SAMPLE_LIMIT_BYTES = 64 * 1024


@dataclass(frozen=True)
class LanguageLimits:
    language: str
    cpu_seconds: float
    memory_mib: int
    note: str
    """How BOJ's allowance derived them, as `judge run` prints it (empty: the problem's own limits)."""


@dataclass(frozen=True)
class Sample:
    name: str
    input: str
    answer: str


@dataclass(frozen=True)
class StatementPage:
    html: str
    """Rendered by markdown-it with raw HTML escaped: safe to insert as markup."""
    limits: tuple[LanguageLimits, ...]
    samples: tuple[Sample, ...]


@lru_cache(maxsize=1)
def _markdown() -> MarkdownIt:
    return MarkdownIt("commonmark", {"html": False, "linkify": False}).enable("table")


def statement_markdown(problem: Problem) -> str:
    """The statement's Markdown, or one line saying why there is none to show."""
    candidates = [
        problem.root / STATEMENT_FILE,
        *(problem.root / folder / name for folder in PACKAGE_STATEMENT_FOLDERS for name in PACKAGE_STATEMENTS),
    ]
    for path in candidates:
        if not os.path.lexists(path):
            continue
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
    samples = tuple(
        Sample(test.name, _text(test.input_path.read_bytes()), _text(test.answer_path.read_bytes()))
        for test in problem.tests
        if test.is_sample
    )
    return StatementPage(_markdown().render(text), tuple(limits), samples)


def _text(content: bytes) -> str:
    shown = content[:SAMPLE_LIMIT_BYTES].decode("utf-8", "replace")
    return shown + ("\n[...]" if len(content) > SAMPLE_LIMIT_BYTES else "")
