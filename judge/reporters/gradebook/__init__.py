"""Views of a class's gradebook, each a file `judge grade` writes into its output folder. Contract:
`render(gradebook: Gradebook) -> str`. The registry below is the whole list."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from judge.grading.gradebook import Gradebook
from judge.grading.results_db import GRADEBOOK_FOLDER
from judge.output_folder import write_atomically
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


def write_views(gradebook: Gradebook, out_dir: Path) -> None:
    """Every view of the registry into `out_dir`, each replaced whole (a full disk: the gradebook folder's line)."""
    for view in GRADEBOOK_VIEWS.values():
        write_atomically(out_dir / view.file_name, view.render(gradebook), GRADEBOOK_FOLDER)
