"""Views of one judged submission. Contract: `report(result: SubmissionResult, stream: TextIO) -> None` writes
the finished result to `stream`. The registry below is the whole list; `judge run --format NAME` picks one."""

from __future__ import annotations

from collections.abc import Callable
from typing import TextIO

from judge.reporters.submission import json_doc, junit, terminal
from judge.results import SubmissionResult

Reporter = Callable[[SubmissionResult, TextIO], None]

REPORTERS: dict[str, Reporter] = {
    "text": terminal.report,
    "json": json_doc.report,
    "junit": junit.report,
}
