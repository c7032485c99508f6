"""Views of a class's gradebook, each a file `judge grade` writes into its output folder. Contract:
`render(gradebook: Gradebook) -> str`. The registry below is the whole list."""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from judge.grading.gradebook import Gradebook
from judge.grading.out_folder import writing_into
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
    """Every view of the registry into `out_dir`."""
    for view in GRADEBOOK_VIEWS.values():
        write_atomically(out_dir / view.file_name, view.render(gradebook))


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
