"""Views of a `judge verify` report. Contract: `report(verified: VerifyReport, stream: TextIO) -> None`. The
registry below is the whole list; `judge verify --format NAME` picks one, and only that one is imported."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, TextIO

from judge.lazy import LazyRegistry

if TYPE_CHECKING:
    from judge.verify.report import VerifyReport

VerifyReporter = Callable[["VerifyReport", TextIO], None]

VERIFY_REPORTERS: LazyRegistry[VerifyReporter] = LazyRegistry(
    {
        "text": "judge.reporters.verify.terminal:report",
        "json": "judge.reporters.verify.json_doc:report",
        "junit": "judge.reporters.verify.junit:report",
    }
)
