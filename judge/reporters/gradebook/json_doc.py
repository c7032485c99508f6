"""grades.json: the whole gradebook as one document, written by `json_document` (pure ASCII, so a folder name
that is not UTF-8 is a `\\udcff` escape, never an encoding error)."""

from __future__ import annotations

from judge.grading.gradebook import Gradebook
from judge.inert import json_document


def render(gradebook: Gradebook) -> str:
    return json_document(gradebook.to_dict()) + "\n"
