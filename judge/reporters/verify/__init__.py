"""Views of a `judge verify` report. Contract: `report(verified: VerifyReport, stream: TextIO) -> None`. The
registry below is the whole list; `judge verify --format NAME` picks one."""

from __future__ import annotations

from collections.abc import Callable
from typing import TextIO

from judge.reporters.verify import json_doc, junit, terminal
from judge.verify import VerifyReport

VerifyReporter = Callable[[VerifyReport, TextIO], None]

VERIFY_REPORTERS: dict[str, VerifyReporter] = {
    "text": terminal.report,
    "json": json_doc.report,
    "junit": junit.report,
}
