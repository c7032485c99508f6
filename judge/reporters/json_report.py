"""JSON: one document per submission, for machines (`judge run --json`)."""

from __future__ import annotations

import json
from typing import TextIO

from judge.results import SubmissionResult


def report(result: SubmissionResult, stream: TextIO) -> None:
    json.dump(result.to_dict(), stream, ensure_ascii=False, indent=2)
    stream.write("\n")
