"""JSON: one document per submission, for machines (`judge run --json`).

Written by `json_document`: pure ASCII, so a control byte or a name that is not UTF-8 is a `\\u` escape in valid
JSON, never a raw byte and never an encoding error.
"""

from __future__ import annotations

from typing import TextIO

from judge.inert import json_document
from judge.judging.feedback import Shown


def report(seen: Shown, stream: TextIO) -> None:
    stream.write(json_document(seen.result.to_dict()))
    stream.write("\n")
