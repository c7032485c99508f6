"""grades.json: the whole gradebook as one document, written by `json_document` (pure ASCII, so a folder name
that is not UTF-8 is a `\\udcff` escape, never an encoding error)."""

from __future__ import annotations

from judge.grading.gradebook import Gradebook
from judge.inert import json_document
from judge.reporters.gradebook.conditions import class_runs, weaker_pairs


def render(gradebook: Gradebook) -> str:
    """The gradebook, with a line per class run and the pairs judged under weaker conditions than the rest."""
    weaker = [{"student": student, "problem": problem} for student, problem in sorted(weaker_pairs(gradebook))]
    document = {**gradebook.to_dict(), "class_runs": [run.to_dict() for run in class_runs(gradebook)]}
    return json_document({**document, "weaker_conditions": weaker}) + "\n"
