"""canvas.csv and moodle.csv (issue 42) opened as an importer reads them (the csv module), against the columns each
LMS documents: Canvas's identification columns and its Points Possible row (Instructure's "How do I import grades
in the Gradebook?"), Moodle's mapping columns and one column per grade item (MoodleDocs "Grade import"); the
roster's names in grades.csv and grades.json, with each grade's points and rule; hostile names stay text."""

from __future__ import annotations

import csv
import io
import json
import math
from pathlib import Path

from judge.class_folder import Unmatched
from judge.course.model import Assignment, AssignmentGrade, CourseGrades, LatePolicy
from judge.course.roster import read_roster
from judge.grading.gradebook import Gradebook, ProblemColumn
from judge.grading.results_db import Fingerprint, StoredResult
from judge.reporters.gradebook import GRADEBOOK_VIEWS
from judge.verdicts import Verdict

HOSTILE_NAME = '=HYPERLINK("http://evil.example","y")'
HOSTILE_TITLE = "@SUM(A1) week 2"
CANVAS_IDENTIFICATION = ["Student", "ID", "SIS User ID", "SIS Login ID", "Section"]
MOODLE_MAPPING = ["ID number", "Email address", "Username"]
WEEK1 = Assignment("week1", "Week 1", ("a",), None, 1_700_000_000.0, LatePolicy(10, 3))
WEEK2 = Assignment("week2", HOSTILE_TITLE, ("b",), 1_690_000_000.0, math.inf)


def _gradebook(tmp_path: Path, *, assignments_file: str | None = "assignments.yaml") -> Gradebook:
    roster = tmp_path / "roster.csv"
    roster.write_text(
        "id,name,email,sis_id,section\n"
        "kim,Kim Minji,kim@school.kr,S-001,A\n"
        f'eve,"{HOSTILE_NAME.replace(chr(34), chr(34) * 2)}",-eve@x,+7,@B\n',
        encoding="utf-8",
    )
    grades = {
        ("kim", "week1"): AssignmentGrade("kim", "week1", 80.0, 100.0, "2 days late: 80 % (10 % a day, at most 3 days)"),
        ("kim", "week2"): AssignmentGrade("kim", "week2", 100.0, 100.0, "on time"),
        ("eve", "week1"): AssignmentGrade("eve", "week1", 0.0, 100.0, "not submitted"),
        ("eve", "week2"): AssignmentGrade("eve", "week2", 66.666667, 100.0, "=1+1"),
        ("lee", "week1"): AssignmentGrade("lee", "week1", 50.0, 100.0, "on time"),
    }
    results = {
        ("kim", "a"): StoredResult("kim", "a", Fingerprint("kim/a.py", "0" * 64, "1" * 64, "0"), Verdict.AC, 1, 1,
                                   None, "", "local", "2024-01-01T00:00:00"),
    }
    return Gradebook(
        problems=(ProblemColumn("a", "A", 1.0, 1), ProblemColumn("b", "B", 1.0, 1)),
        students=("kim", "eve", "lee"),  # lee: in the class folder, not in the roster
        results=results,
        unmatched=(Unmatched("x", "y"),),
        layout="by-student",
        partial=False,
        generated_at="2024-01-01T00:00:00+00:00",
        roster=read_roster(roster),
        course=CourseGrades((WEEK1, WEEK2), grades),
        assignments_file=assignments_file,
    )


def _rows(text: str) -> list[list[str]]:
    return list(csv.reader(io.StringIO(text, newline="")))


def test_canvas_csv_has_canvas_identification_columns_points_possible_and_a_column_per_assignment(
    tmp_path: Path,
) -> None:
    text = GRADEBOOK_VIEWS["canvas"].render(_gradebook(tmp_path))
    assert GRADEBOOK_VIEWS["canvas"].file_name == "canvas.csv"
    assert text.startswith("Student,")  # no byte order mark before the header Canvas matches
    header, possible, kim, eve, lee = _rows(text)
    assert header == [*CANVAS_IDENTIFICATION, "Week 1", "'" + HOSTILE_TITLE]
    assert possible == ["Points Possible", "", "", "", "", "100", "100"]
    assert kim == ["Kim Minji", "", "S-001", "", "A", "80", "100"]
    assert eve == ["'" + HOSTILE_NAME, "", "'+7", "", "'@B", "0", "66.667"]
    assert lee == ["lee", "", "", "", "", "50", ""]


def test_moodle_csv_has_mapping_columns_and_a_column_per_grade_item(tmp_path: Path) -> None:
    text = GRADEBOOK_VIEWS["moodle"].render(_gradebook(tmp_path))
    assert GRADEBOOK_VIEWS["moodle"].file_name == "moodle.csv"
    header, kim, eve, lee = _rows(text)
    assert header == [*MOODLE_MAPPING, "Week 1", "'" + HOSTILE_TITLE]
    assert kim == ["S-001", "kim@school.kr", "kim", "80", "100"]
    assert eve == ["'+7", "'-eve@x", "eve", "0", "66.667"]
    assert lee == ["", "", "lee", "50", ""]


def test_grades_csv_gains_the_roster_columns_and_each_assignments_points_and_rule(tmp_path: Path) -> None:
    text = GRADEBOOK_VIEWS["csv"].render(_gradebook(tmp_path))
    header, kim, eve, lee = _rows(text.removeprefix("\ufeff"))
    assert header == ["student", "name", "email", "sis_id", "section", "a", "b", "score", "max",
                      "week1 points", "week1 rule", "week2 points", "week2 rule"]
    assert kim == ["kim", "Kim Minji", "kim@school.kr", "S-001", "A", "AC", "", "1", "2",
                   "80", "2 days late: 80 % (10 % a day, at most 3 days)", "100", "on time"]
    assert eve[:5] == ["eve", "'" + HOSTILE_NAME, "'-eve@x", "'+7", "'@B"] and eve[-2:] == ["66.667", "'=1+1"]
    assert lee[1:5] == ["", "", "", ""] and lee[-4:] == ["50", "on time", "", ""]


def test_grades_csv_of_a_class_without_assignments_or_roster_keeps_its_columns(tmp_path: Path) -> None:
    gradebook = _gradebook(tmp_path, assignments_file=None)
    plain = Gradebook(gradebook.problems, gradebook.students, gradebook.results, gradebook.unmatched,
                      gradebook.layout, gradebook.partial, gradebook.generated_at, course=gradebook.course)
    assert _rows(GRADEBOOK_VIEWS["csv"].render(plain).removeprefix("\ufeff"))[0] == ["student", "a", "b", "score",
                                                                                       "max"]


def test_grades_json_carries_the_roster_the_assignments_and_each_grades_rule(tmp_path: Path) -> None:
    document = json.loads(GRADEBOOK_VIEWS["json"].render(_gradebook(tmp_path)))
    kim, eve, lee = document["students"]
    assert kim["roster"] == {"name": "Kim Minji", "email": "kim@school.kr", "sis_id": "S-001", "section": "A"}
    assert eve["roster"]["name"] == HOSTILE_NAME and "roster" not in lee
    assert kim["assignments"]["week1"] == {"points": 80.0, "max_points": 100.0,
                                           "rule": "2 days late: 80 % (10 % a day, at most 3 days)"}
    assert document["assignments_file"] == "assignments.yaml"
    week1, week2 = document["assignments"]
    assert (week1["due"], week1["late"]) == (1_700_000_000.0, {"percent_per_day": 10, "max_days": 3})
    assert week2["due"] is None and week2["opens"] == 1_690_000_000.0  # due never: null, not Infinity


def test_a_folder_name_without_a_roster_is_inert_in_both_lms_files(tmp_path: Path) -> None:
    gradebook = _gradebook(tmp_path)
    bare = Gradebook(gradebook.problems, (HOSTILE_NAME, "kim\x1b[2J"), {}, (), "by-student", False,
                     gradebook.generated_at, course=CourseGrades((WEEK1,), {}))
    canvas = _rows(GRADEBOOK_VIEWS["canvas"].render(bare))
    moodle = _rows(GRADEBOOK_VIEWS["moodle"].render(bare))
    assert [row[0] for row in canvas[2:]] == ["'" + HOSTILE_NAME, "kim\\x1b[2J"]
    assert [row[2] for row in moodle[1:]] == ["'" + HOSTILE_NAME, "kim\\x1b[2J"]
    assert canvas[1] == ["Points Possible", "", "", "", "", ""]  # nobody graded: no points to claim
