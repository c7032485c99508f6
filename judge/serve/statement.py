"""A problem's page: its statement.md rendered to HTML, its limits per language, its samples.

Markdown is rendered by markdown-it-py with raw HTML off (a `<script>` in a statement is shown as text) and its
own link check (no `javascript:` links); nothing is fetched from anywhere, so the page works offline.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from markdown_it import MarkdownIt

from judge.errors import SpecError
from judge.judging.limit_policy import effective_limits, limits_note
from judge.languages.catalog import LANGUAGES
from judge.problems.files import read_problem_file
from judge.problems.model import Problem

STATEMENT_FILE = "statement.md"
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


def statement_page(problem: Problem) -> StatementPage:
    path = problem.root / STATEMENT_FILE
    try:
        text = read_problem_file(path, problem.root, STATEMENT_LIMIT_BYTES).decode("utf-8", "replace")
    except (SpecError, OSError):
        text = f"*This problem has no readable {STATEMENT_FILE}.*"
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
