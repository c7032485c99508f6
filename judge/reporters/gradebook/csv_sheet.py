"""grades.csv: one row per student, the verdict's short code per problem (empty if not submitted; with the score on a
scored problem, `AC 50/100`, text to a spreadsheet), the score, and the maximum score (its own column: a cell `2/4`
would be a date to a spreadsheet, and no longer a number to sum).

It starts with a UTF-8 byte order mark: without one, Excel reads a CSV in the system's code page (CP949 on a Korean
Windows), and `민준` turns into mojibake; LibreOffice and Python's `utf-8-sig` read the mark as what it is.

Student names and problem ids are hostile text: they pass `csv_cell`, so a name like `=HYPERLINK(...)` stays text
in a spreadsheet; the verdicts and scores are the judge's own and stay as they are.
"""

from __future__ import annotations

import csv
import io

from judge.grading.gradebook import Gradebook, format_score
from judge.grading.results_db import StoredResult
from judge.inert import csv_cell

UTF8_BOM = "\ufeff"


def render(gradebook: Gradebook) -> str:
    buffer = io.StringIO()
    buffer.write(UTF8_BOM)
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(["student", *(csv_cell(problem.id) for problem in gradebook.problems), "score", "max"])
    for student in gradebook.students:
        cells = [
            _cell(result) if (result := gradebook.result(student, problem.id)) is not None else ""
            for problem in gradebook.problems
        ]
        writer.writerow([csv_cell(student), *cells, format_score(gradebook.score(student)), gradebook.max_score])
    return buffer.getvalue()


def _cell(result: StoredResult) -> str:
    """The verdict, and on a scored problem its score: `AC 50/100`."""
    shown = result.result.score_shown if result.result is not None else ""
    return f"{result.verdict.short} {shown}" if shown else result.verdict.short
