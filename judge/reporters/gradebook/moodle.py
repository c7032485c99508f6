"""moodle.csv: a file Moodle's "Import grades: CSV file" (Grades > Import > CSV file) takes as it is, as the
MoodleDocs page "Grade import" describes it: a header line, a column the teacher maps the users from ("Identify
user by": Map from a column, Map to `useremail`, `useridnumber` or `username`), and one column per grade item, which
the "Grade item mappings" put on an existing item or a new one named by the column.

The mapping columns are Moodle's own export's names: `ID number` (the roster's `sis_id`), `Email address` (its
`email`); and `Username`, the judge's id, for a class whose ids are its Moodle user names. Then one column per
assignment, named by its title, holding the points after late credit (empty with no grade, which Moodle imports
as no grade). Moodle skips a row whose mapping cell is empty, so a student without the e-mail or ID number the
teacher maps from is left out, not refused. The rule each grade used is in grades.csv and grades.json.
"""

from __future__ import annotations

from judge.grading.gradebook import Gradebook
from judge.reporters.gradebook.lms_sheet import assignments, points, sheet, students

MAPPING = ("ID number", "Email address", "Username")


def render(gradebook: Gradebook) -> str:
    columns = assignments(gradebook)
    rows = [[*MAPPING, *(assignment.title for assignment in columns)]]
    for student, row in students(gradebook):
        mapping = [row.sis_id, row.email, student] if row is not None else ["", "", student]
        rows.append([*mapping, *(points(gradebook, student, assignment) for assignment in columns)])
    return sheet(rows)
