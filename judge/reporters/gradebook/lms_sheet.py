"""What the LMS views (canvas.csv, moodle.csv) share: the students in the gradebook's order with their roster row,
each assignment's points, and one CSV writer (RFC 4180) that puts every cell through `inert.csv_cell`.

No byte order mark, unlike grades.csv: these files go to an importer as they are, and its header match must see
`Student` (Canvas) or the column names (Moodle), not a mark before them; both read UTF-8.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Sequence

from judge.course.model import Assignment
from judge.course.roster import RosterRow
from judge.grading.gradebook import Gradebook, format_score
from judge.inert import csv_cell


def students(gradebook: Gradebook) -> list[tuple[str, RosterRow | None]]:
    """Each student of the gradebook, with their roster row when the roster names them."""
    rows = gradebook.roster.by_id() if gradebook.roster is not None else {}
    return [(student, rows.get(student)) for student in gradebook.students]


def assignments(gradebook: Gradebook) -> tuple[Assignment, ...]:
    return gradebook.course.assignments if gradebook.course is not None else ()


def points(gradebook: Gradebook, student: str, assignment: Assignment) -> str:
    """The student's points for the assignment after late credit ('' when there is no grade)."""
    grade = gradebook.course.grades.get((student, assignment.id)) if gradebook.course is not None else None
    return format_score(grade.points) if grade is not None else ""


def points_possible(gradebook: Gradebook) -> dict[str, str]:
    """The most each assignment is worth, by id, as its grades say ('' for one nobody was graded on)."""
    worth: dict[str, float] = {}
    for (_, assignment_id), grade in gradebook.course.grades.items() if gradebook.course is not None else ():
        worth[assignment_id] = max(worth.get(assignment_id, 0.0), grade.max_points)
    return {
        assignment.id: format_score(worth[assignment.id]) if assignment.id in worth else ""
        for assignment in assignments(gradebook)
    }


def sheet(rows: Iterable[Sequence[str]]) -> str:
    """The rows as CSV, every cell made inert (a name like `=HYPERLINK(` stays text; a number is left as it is)."""
    buffer = io.StringIO()
    writer = csv.writer(buffer)  # lines end in CRLF, as RFC 4180 (which Canvas's CSV imports cite) writes them
    writer.writerows([csv_cell(cell) for cell in row] for row in rows)
    return buffer.getvalue()
