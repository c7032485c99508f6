"""Views of a class's gradebook, each a file `judge grade` writes into its output folder. Contract:
`render(gradebook: Gradebook) -> str`. The registry below is the whole list; `write_views` gives every view the
gradebook as the teacher's feedback policy shows it (judging/feedback.py), as every view of a result is given one.
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from judge.grading.gradebook import Gradebook
from judge.grading.out_folder import writing_into
from judge.grading.store import StoredResult
from judge.judging.feedback import TEACHER, shown, shown_error
from judge.reporters.gradebook import csv_sheet, json_doc, page


@dataclass(frozen=True)
class GradebookView:
    """One file of the gradebook: its name in the output folder, and how its text is made."""

    file_name: str
    render: Callable[[Gradebook], str]


GRADEBOOK_VIEWS: dict[str, GradebookView] = {
    "csv": GradebookView("grades.csv", csv_sheet.render),
    "json": GradebookView("grades.json", json_doc.render),
    "html": GradebookView("report.html", page.render),
}


GRADEBOOK_POLICY = TEACHER
"""The gradebook is the teacher's: everything of every test (`judge serve` exports it for the teacher only)."""


def write_views(gradebook: Gradebook, out_dir: Path) -> None:
    """Every view of the registry into `out_dir`."""
    seen = as_seen(gradebook, GRADEBOOK_POLICY)
    for view in GRADEBOOK_VIEWS.values():
        write_atomically(out_dir / view.file_name, view.render(seen))


def as_seen(gradebook: Gradebook, policy: str) -> Gradebook:
    """`gradebook` with each stored result, and each line of a pair that could not be judged, as `policy` shows
    them."""
    return dataclasses.replace(
        gradebook, results={pair: _seen(stored, policy) for pair, stored in gradebook.results.items()}
    )


def _seen(stored: StoredResult, policy: str) -> StoredResult:
    result = shown(stored.result, policy).result if stored.result is not None else None
    return dataclasses.replace(stored, result=result, error=shown_error(stored.error, policy))


def write_atomically(path: Path, text: str) -> None:
    """Write through a temporary file and rename, so a reader never sees half a gradebook. A full disk is the one
    line naming the folder (grading/out_folder.py), and the failed write removes its temporary file rather than
    leave it taking the space. `judge similarity` writes its files through here too."""
    partial_path = path.with_name(f".{path.name}.partial")
    with writing_into(path.parent):
        try:
            partial_path.write_text(text, encoding="utf-8")
        except OSError:
            partial_path.unlink(missing_ok=True)
            raise
        os.replace(partial_path, path)
