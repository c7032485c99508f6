"""canvas.csv: the layout Canvas's Gradebook imports (Grades > Import), as Instructure's guide "How do I import
grades in the Gradebook?" and the gradebook's own CSV export describe it: the identification columns `Student`,
`ID`, `SIS User ID`, `SIS Login ID`, `Section`, then one column per assignment, named by its title; the second row
is `Points Possible`, with each assignment's most points, which a new assignment column takes as its points.

`Student` is the roster's name (the id without a roster), `SIS User ID` its `sis_id`, `Section` its `section`.
`ID` (Canvas's own user number) and `SIS Login ID` are left empty: the judge cannot know them. Canvas's importer
(canvas-lms, GradebookImporter) takes the header for one when its first cells match `Student`, `ID` and its
fifth `Section`, matches a row by `SIS User ID`, else by the student's name (or "Last, First"), and asks the
teacher about the rest. A column title ending in `(digits)` is read as a Canvas assignment's id, and one named
like `Final Score` at the end is dropped as Canvas's own: name assignments otherwise. A cell is the assignment's
points after late credit (empty with no grade); the rule each grade used is in grades.csv and grades.json.
"""

from __future__ import annotations

from judge.grading.gradebook import Gradebook
from judge.reporters.gradebook.lms_sheet import assignments, points, points_possible, sheet, students

IDENTIFICATION = ("Student", "ID", "SIS User ID", "SIS Login ID", "Section")
POINTS_POSSIBLE = "Points Possible"


def render(gradebook: Gradebook) -> str:
    columns = assignments(gradebook)
    possible = points_possible(gradebook)
    rows = [
        [*IDENTIFICATION, *(assignment.title for assignment in columns)],
        [POINTS_POSSIBLE, "", "", "", "", *(possible[assignment.id] for assignment in columns)],
    ]
    for student, row in students(gradebook):
        identification = [row.name, "", row.sis_id, "", row.section] if row is not None else [student, "", "", "", ""]
        rows.append([*identification, *(points(gradebook, student, assignment) for assignment in columns)])
    return sheet(rows)
