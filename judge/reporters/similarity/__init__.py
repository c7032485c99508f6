"""Views of a similarity report. The terminal table is printed; the files are written into the output folder.
Contracts: `report(result: SimilarityReport, stream: TextIO) -> None` for the terminal, `render(result) -> str`
for a file. The registries below are the whole lists."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TextIO

from judge.output_folder import FolderWords, write_atomically
from judge.reporters.similarity import csv_sheet, page, terminal
from judge.similarity import SimilarityReport

TERMINAL: dict[str, Callable[[SimilarityReport, TextIO], None]] = {"text": terminal.report}

OUT_FOLDER = FolderWords("the similarity folder", "run the same command again")
"""How a full --out folder is told."""

FILES: dict[str, Callable[[SimilarityReport], str]] = {
    "similarity.csv": csv_sheet.render,
    "similarity.html": page.render,
}


def write_files(result: SimilarityReport, out_dir: Path) -> None:
    out_dir.mkdir(parents=True, exist_ok=True)
    for name, render in FILES.items():
        write_atomically(out_dir / name, render(result), OUT_FOLDER)
