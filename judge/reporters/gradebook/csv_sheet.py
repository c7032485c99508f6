"""grades.csv: one row per student, the verdict's short code per problem (empty if not submitted), then the score.

Student names and problem ids are hostile text: they pass `csv_cell`, so a name like `=HYPERLINK(...)` stays text
in a spreadsheet; the verdicts and scores are the judge's own and stay as they are.
"""

from __future__ import annotations

import csv
import io

from judge.grading.gradebook import Gradebook, format_score
from judge.inert import csv_cell


def render(gradebook: Gradebook) -> str:
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(["student", *(csv_cell(problem.id) for problem in gradebook.problems), "score"])
    for student in gradebook.students:
        cells = [
            result.verdict.short if (result := gradebook.result(student, problem.id)) is not None else ""
            for problem in gradebook.problems
        ]
        writer.writerow([csv_cell(student), *cells, format_score(gradebook.score(student))])
    return buffer.getvalue()
