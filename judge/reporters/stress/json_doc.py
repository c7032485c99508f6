"""JSON: one document per stress run, for machines; pure ASCII (see judge.inert.json_document)."""

from __future__ import annotations

from typing import Any, TextIO

from msgspec.structs import asdict

from judge.inert import json_document
from judge.stress import StressReport


def to_dict(result: StressReport) -> dict[str, Any]:
    data = asdict(result)
    if result.failure is not None:
        data["failure"] = {**asdict(result.failure), "verdict": result.failure.verdict.short}
        for key in ("input", "expected", "actual"):
            data["failure"][key] = getattr(result.failure, key).decode("utf-8", errors="surrogateescape")
    return data


def report(result: StressReport, stream: TextIO) -> None:
    stream.write(json_document(to_dict(result)))
    stream.write("\n")
