"""`judge grade --roster --assignments` (issue 42): the class folder's canvas.csv and moodle.csv, opened as CSV and
compared with the columns Canvas and Moodle document, with late credit counted from each file's modification time;
a plain class (no roster, no assignments file) still exports a column per problem."""

from __future__ import annotations

import csv
import io
import os
from datetime import UTC, datetime
from pathlib import Path

from conftest import assert_usage_error, judge_cli
from grade_helpers import judge_main, write_class, write_problems

DUE = datetime(2026, 3, 9, 12, 0, tzinfo=UTC).timestamp()
DAY = 24 * 60 * 60
ASSIGNMENTS = """\
zone: UTC
assignments:
  - id: week1
    title: Week 1
    problems: [add]
    due: 2026-03-09 12:00
    late: {percent_per_day: 10, max_days: 3}
"""
ROSTER = "id,name,email,sis_id,section\nalice,Alice Kim,alice@school.kr,S-1,A\nbob,Bob Lee,bob@school.kr,S-2,B\n" \
         "carol,Carol Choi,carol@school.kr,S-3,A\n"


def _rows(path: Path) -> list[list[str]]:
    return list(csv.reader(io.StringIO(path.read_text(encoding="utf-8"), newline="")))


def _class(tmp_path: Path) -> Path:
    """alice: both accepted on time; bob: add accepted 1.5 days late (2 started days: 80 %), mul wrong; carol:
    nothing (on the roster only); zed: a folder that is not on the roster."""
    members = {"alice": {"add.py": "add_ac", "mul.py": "mul_ac"}, "bob": {"add.py": "add_ac", "mul.py": "mul_wa"},
               "zed": {"mul.py": "mul_ac"}}
    root = write_class(tmp_path / "class", members)
    for path in root.glob("*/*.py"):
        os.utime(path, (DUE - DAY, DUE - DAY))
    os.utime(root / "bob" / "add.py", (DUE + 1.5 * DAY, DUE + 1.5 * DAY))
    return root


def test_grade_writes_canvas_and_moodle_files_with_late_credit_from_the_file_times(tmp_path: Path, capsys) -> None:
    problems = write_problems(tmp_path / "problems")
    (problems / "assignments.yaml").write_text(ASSIGNMENTS, encoding="utf-8")  # found beside the problems
    (tmp_path / "roster.csv").write_text(ROSTER, encoding="utf-8")
    out = tmp_path / "out"
    assert judge_main("grade", problems, _class(tmp_path), "--out", out, "--roster", tmp_path / "roster.csv",
                      "-j", "1", "--quiet") == 0
    capsys.readouterr()

    assert _rows(out / "canvas.csv") == [
        ["Student", "ID", "SIS User ID", "SIS Login ID", "Section", "Week 1", "Problem mul"],
        ["Points Possible", "", "", "", "", "100", "100"],
        ["Alice Kim", "", "S-1", "", "A", "100", "100"],
        ["Bob Lee", "", "S-2", "", "B", "80", "0"],
        ["Carol Choi", "", "S-3", "", "A", "0", "0"],
        ["zed", "", "", "", "", "0", "100"],
    ]
    assert _rows(out / "moodle.csv") == [
        ["ID number", "Email address", "Username", "Week 1", "Problem mul"],
        ["S-1", "alice@school.kr", "alice", "100", "100"],
        ["S-2", "bob@school.kr", "bob", "80", "0"],
        ["S-3", "carol@school.kr", "carol", "0", "0"],
        ["", "", "zed", "0", "100"],
    ]
    grades = _rows(out / "grades.csv")
    assert grades[0] == ["\ufeffstudent", "name", "email", "sis_id", "section", "add", "mul", "score", "max",
                         "week1 points", "week1 rule", "mul points", "mul rule"]
    assert grades[2][1] == "Bob Lee" and grades[2][-4:] == [
        "80", "2 days late: 80 % (10 % a day, at most 3 days)", "0", "on time"]


def test_a_plain_class_exports_a_column_per_problem_and_keeps_grades_csv(tmp_path: Path, capsys) -> None:
    problems = write_problems(tmp_path / "problems")
    out = tmp_path / "out"
    assert judge_main("grade", problems, _class(tmp_path), "--out", out, "-j", "1", "--quiet") == 0
    capsys.readouterr()
    assert _rows(out / "canvas.csv")[:3] == [
        ["Student", "ID", "SIS User ID", "SIS Login ID", "Section", "Problem add", "Problem mul"],
        ["Points Possible", "", "", "", "", "100", "100"],
        ["alice", "", "", "", "", "100", "100"],
    ]
    assert _rows(out / "grades.csv")[0] == ["\ufeffstudent", "add", "mul", "score", "max"]


def test_a_missing_assignments_file_or_a_bad_roster_is_refused_before_judging(tmp_path: Path) -> None:
    problems = write_problems(tmp_path / "problems")
    root = _class(tmp_path)
    missing = tmp_path / "nope.yaml"
    done = judge_cli("grade", problems, root, "--out", tmp_path / "out", "--assignments", missing)
    assert_usage_error(done, f"{missing}: no such assignments file")
    (tmp_path / "roster.csv").write_text("id,name,phone\nalice,A,1\n", encoding="utf-8")
    done = judge_cli("grade", problems, root, "--out", tmp_path / "out", "--roster", tmp_path / "roster.csv")
    assert_usage_error(done, f"{tmp_path / 'roster.csv'}: unknown column 'phone'")
    assert not (tmp_path / "out" / "results.sqlite").exists()


def test_an_extension_beside_the_roster_counts_as_in_judge_serve(tmp_path: Path, capsys) -> None:
    problems = write_problems(tmp_path / "problems")
    (problems / "assignments.yaml").write_text(ASSIGNMENTS, encoding="utf-8")
    (tmp_path / "roster.csv").write_text(ROSTER, encoding="utf-8")
    (tmp_path / "extensions.csv").write_text("student,assignment,due\nbob,week1,2026-03-11 12:00\n", encoding="utf-8")
    out = tmp_path / "out"
    assert judge_main("grade", problems, _class(tmp_path), "--out", out, "--roster", tmp_path / "roster.csv",
                      "-j", "1", "--quiet") == 0
    capsys.readouterr()
    assert _rows(out / "canvas.csv")[3] == ["Bob Lee", "", "S-2", "", "B", "100", "0"]  # due 2 days later for bob
    assert _rows(out / "grades.csv")[2][-4:-2] == ["100", "on time"]
