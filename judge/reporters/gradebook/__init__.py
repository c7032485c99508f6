"""Views of a class's gradebook, each a file `judge grade` writes into its output folder. Contract:
`render(gradebook: Gradebook) -> str`. The registry below is the whole list; `write_views` gives every view the
gradebook as the teacher's feedback policy shows it (judging/feedback.py), as every view of a result is given one.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import msgspec.structs
from msgspec import Struct

from judge.grading.gradebook import Gradebook
from judge.grading.results_db import GRADEBOOK_FOLDER, StoredResult
from judge.judging.feedback import TEACHER, shown, shown_error
from judge.output_folder import write_atomically
from judge.reporters.gradebook import canvas, csv_sheet, json_doc, moodle, page


class GradebookView(Struct, frozen=True):
    """One file of the gradebook: its name in the output folder, and how its text is made."""

    file_name: str
    render: Callable[[Gradebook], str]


GRADEBOOK_VIEWS: dict[str, GradebookView] = {
    "csv": GradebookView("grades.csv", csv_sheet.render),
    "json": GradebookView("grades.json", json_doc.render),
    "html": GradebookView("report.html", page.render),
    "canvas": GradebookView("canvas.csv", canvas.render),
    "moodle": GradebookView("moodle.csv", moodle.render),
}


GRADEBOOK_POLICY = TEACHER
"""The gradebook is the teacher's: everything of every test (`judge serve` exports it for the teacher only)."""


def write_views(gradebook: Gradebook, out_dir: Path) -> None:
    """Every view of the registry into `out_dir`, each replaced whole (a full disk: the gradebook folder's line)."""
    seen = as_seen(gradebook, GRADEBOOK_POLICY)
    for view in GRADEBOOK_VIEWS.values():
        write_atomically(out_dir / view.file_name, view.render(seen), GRADEBOOK_FOLDER)


def as_seen(gradebook: Gradebook, policy: str) -> Gradebook:
    """`gradebook` with each stored result, and each line of a pair that could not be judged, as `policy` shows
    them."""
    return msgspec.structs.replace(
        gradebook, results={pair: _seen(stored, policy) for pair, stored in gradebook.results.items()}
    )


def _seen(stored: StoredResult, policy: str) -> StoredResult:
    result = shown(stored.result, policy).result if stored.result is not None else None
    return msgspec.structs.replace(stored, result=result, error=shown_error(stored.error, policy))
