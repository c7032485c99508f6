"""Views of one judged submission. Contract: `report(seen: Shown, stream: TextIO) -> None` writes the finished
result, as a feedback policy lets it be seen (judging/feedback.py), to `stream`. The registry below is the whole
list; `judge run --format NAME` picks one, and only that one is imported (rich for text, ElementTree for junit)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TextIO

from judge.judging.feedback import Shown
from judge.lazy import LazyRegistry

Reporter = Callable[[Shown, TextIO], None]

REPORTERS: LazyRegistry[Reporter] = LazyRegistry(
    {
        "text": "judge.reporters.submission.terminal:report",
        "json": "judge.reporters.submission.json_doc:report",
        "junit": "judge.reporters.submission.junit:report",
    }
)
