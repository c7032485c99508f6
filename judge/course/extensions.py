"""Extensions: one student's own due time for one assignment, from `extensions.csv` (columns student, assignment,
due; the due time in the course's zone, `YYYY-MM-DD HH:MM`) or from serve's teacher page. Both are checked by
`extension_of`, so a row of the file and a field of the form are refused in the same words.

    student,assignment,due
    s001,week1,2026-03-12 23:59

`judge serve` reads the file beside the roster (roster.csv's folder), at start and on "read the problems
again"; without one, the teacher's page is the only source."""

from __future__ import annotations

import csv
from collections.abc import Collection
from pathlib import Path

from judge.course.files import optional_text
from judge.course.model import Course, Extension
from judge.course.times import parse_time, shown_time
from judge.errors import JudgeError

EXTENSIONS_FILE = "extensions.csv"
COLUMNS = ("student", "assignment", "due")
LIMIT_BYTES = 1024 * 1024


def extension_of(student: str, assignment_id: str, due: str, course: Course, students: Collection[str]) -> Extension:
    """The extension these fields grant; JudgeError (one line, no file named: the caller adds where) when the
    student or the assignment is unknown, or the due time is malformed or not after the assignment's own."""
    if student not in students:
        raise JudgeError(f"student: {student!r} is not on the roster; check the id")
    assignment = next((each for each in course.assignments if each.id == assignment_id), None)
    if assignment is None:
        known = ", ".join(each.id for each in course.assignments) or "none in assignments.yaml"
        raise JudgeError(f"assignment: no assignment {assignment_id!r}; the assignments are: {known}")
    moment = parse_time(due, "due", course.zone)
    if moment is None:
        raise JudgeError("due: empty; write the new due time, YYYY-MM-DD HH:MM")
    if moment <= assignment.due:
        raise JudgeError(
            f"due: {due.strip()} is not after the assignment's due time ({shown_time(assignment.due)}); "
            "an extension gives more time"
        )
    return Extension(student, assignment_id, moment)


def read_extensions(path: Path, course: Course, students: Collection[str]) -> tuple[Extension, ...]:
    """The extensions in the CSV file at `path` (none when there is no such file); JudgeError naming the file
    and the line for any malformed row, or one student's two rows for the same assignment."""
    text = optional_text(path, LIMIT_BYTES, EXTENSIONS_FILE, "CSV")
    if text is None:
        return ()
    reader = csv.DictReader(text.splitlines())
    if tuple(reader.fieldnames or ()) != COLUMNS:
        raise JudgeError(f"{path}: the first line must name the columns {','.join(COLUMNS)}")
    found: dict[tuple[str, str], Extension] = {}
    for line, row in enumerate(reader, start=2):
        if None in row or any(value is None for value in row.values()):
            raise JudgeError(f"{path}:{line}: give three fields, student,assignment,due")
        student, assignment = row["student"].strip(), row["assignment"].strip()
        if (student, assignment) in found:
            raise JudgeError(f"{path}:{line}: {student!r} has a second extension for {assignment!r}; keep one")
        try:
            found[student, assignment] = extension_of(student, assignment, row["due"], course, students)
        except JudgeError as error:
            raise JudgeError(f"{path}:{line}: {error}") from None
    return tuple(found.values())
