"""Reporters present finished results; they never decide a verdict.

Contract: a reporter is a function `report(result: SubmissionResult, stream: TextIO) -> None` that writes one
finished submission's result to `stream`. The registry below is the whole list; `judge run --format NAME`
picks one.
"""

from __future__ import annotations

from typing import Callable, TextIO

from judge.reporters import json_report, junit, text
from judge.results import SubmissionResult

Reporter = Callable[[SubmissionResult, TextIO], None]

REPORTERS: dict[str, Reporter] = {
    "text": text.report,
    "json": json_report.report,
    "junit": junit.report,
}
