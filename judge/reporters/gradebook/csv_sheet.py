"""grades.csv: one row per student, the verdict's short code per problem (empty if not submitted; with the score on a
scored problem, `AC 50/100`, text to a spreadsheet), the score, and the maximum score (its own column: a cell `2/4`
would be a date to a spreadsheet, and no longer a number to sum).

It starts with a UTF-8 byte order mark: without one, Excel reads a CSV in the system's code page (CP949 on a Korean
Windows), and `민준` turns into mojibake; LibreOffice and Python's `utf-8-sig` read the mark as what it is.

With a roster, the student's `name` follows their id (and `email`, `sis_id`, `section` when the roster has them);
with an assignments file, each assignment's points after late credit and the rule that gave them close the row
(`<id> points`, `<id> rule`), the same numbers canvas.csv and moodle.csv carry.

Student names and problem ids are hostile text: they pass `csv_cell`, so a name like `=HYPERLINK(...)` stays text
in a spreadsheet; the verdicts and scores are the judge's own and stay as they are.
"""

from __future__ import annotations

import csv
import io

from judge.grading.gradebook import ROSTER_FIELDS, Gradebook, format_score
from judge.grading.results_db import StoredResult
from judge.inert import csv_cell

UTF8_BOM = "\ufeff"


def render(gradebook: Gradebook) -> str:
    buffer = io.StringIO()
    buffer.write(UTF8_BOM)
    writer = csv.writer(buffer, lineterminator="\n")
    roster = gradebook.roster
    named = ["name", *(column for column in ROSTER_FIELDS if roster.has(column))] if roster is not None else []
    rows = roster.by_id() if roster is not None else {}
    course = gradebook.course if gradebook.assignments_file is not None else None
    assignments = course.assignments if course is not None else ()
    writer.writerow(
        [
            "student",
            *named,
            *(csv_cell(problem.id) for problem in gradebook.problems),
            "score",
            "max",
            *(csv_cell(f"{assignment.id} {part}") for assignment in assignments for part in ("points", "rule")),
        ]
    )
    for student in gradebook.students:
        row = rows.get(student)
        cells = [
            _cell(result) if (result := gradebook.result(student, problem.id)) is not None else ""
            for problem in gradebook.problems
        ]
        grades = [course.grades.get((student, assignment.id)) if course else None for assignment in assignments]
        writer.writerow(
            [
                csv_cell(student),
                *(csv_cell(getattr(row, column)) if row is not None else "" for column in named),
                *cells,
                format_score(gradebook.score(student)),
                gradebook.max_score,
                *(
                    cell
                    for grade in grades
                    for cell in ((format_score(grade.points), csv_cell(grade.rule)) if grade else ("", ""))
                ),
            ]
        )
    return buffer.getvalue()


def _cell(result: StoredResult) -> str:
    """The verdict, and on a scored problem its score: `AC 50/100`."""
    shown = result.result.score_shown if result.result is not None else ""
    return f"{result.verdict.short} {shown}" if shown else result.verdict.short
