"""Views of a stress run. Contract: `report(result: StressReport, stream: TextIO) -> None`. The registry below is
the whole list; `judge stress --format NAME` picks one."""

from __future__ import annotations

from collections.abc import Callable
from typing import TextIO

from judge.reporters.stress import json_doc, terminal
from judge.stress import StressReport

Reporter = Callable[[StressReport, TextIO], None]

REPORTERS: dict[str, Reporter] = {
    "text": terminal.report,
    "json": json_doc.report,
}
