"""assignments.yaml: read into a Course in the file's zone; every mistake one line naming the file and the fix."""

from __future__ import annotations

import re
from datetime import datetime
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

from judge.course.assignments import read_course
from judge.course.model import LatePolicy
from judge.errors import JudgeError

SEOUL = ZoneInfo("Asia/Seoul")
GOOD = """\
zone: Asia/Seoul
assignments:
  - id: week1
    title: Loops
    problems: [1000, "1001"]
    opens: 2026-03-02 09:00
    due: 2026-03-09 23:59
  - id: week2
    title: Sorting
    problems: [2000]
    due: 2026-03-16 23:59:00
    late: {percent_per_day: 10, max_days: 3}
"""


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "assignments.yaml"
    path.write_text(text)
    return path


def test_a_course_read_in_its_zone(tmp_path: Path) -> None:
    course = read_course(write(tmp_path, GOOD), {"1000", "1001", "2000"})
    week1, week2 = course.assignments
    assert course.zone == "Asia/Seoul"
    assert (week1.id, week1.title, week1.problems) == ("week1", "Loops", ("1000", "1001"))
    assert week1.opens == datetime(2026, 3, 2, 9, 0, tzinfo=SEOUL).timestamp()
    assert week1.due == datetime(2026, 3, 9, 23, 59, tzinfo=SEOUL).timestamp()
    assert week1.late == LatePolicy() and week1.late.refuses_late
    assert week2.opens is None
    assert week2.due == datetime(2026, 3, 16, 23, 59, tzinfo=SEOUL).timestamp()
    assert week2.late == LatePolicy(percent_per_day=10, max_days=3)
    assert course.assignment_of("2000") == week2
    assert course.assignment_of("3000") is None


def test_no_file_is_no_assignments(tmp_path: Path) -> None:
    assert read_course(tmp_path / "assignments.yaml").assignments == ()


@pytest.mark.parametrize(
    ("text", "line"),
    [
        (GOOD.replace("  - id: week2", "  - id: week1"), "assignments.1.id: 'week1' names two assignments"),
        (GOOD.replace("[2000]", "[1000]"), "assignments.1.problems: '1000' is already in assignment 'week1'"),
        (GOOD.replace("[2000]", "[2001]"), "assignments.1.problems: '2001' is no problem in this folder"),
        (GOOD.replace("2026-03-09 23:59", "2026-03-01 23:59"), "assignments.0.due: 2026-03-01 23:59 is not after"),
        (GOOD.replace("2026-03-09 23:59", "2026-03-09"), "assignments.0.due: 2026-03-09 is not a time to the minute"),
        (GOOD.replace("2026-03-09 23:59", "next monday"), "assignments.0.due: 'next monday' is not a time"),
        (GOOD.replace("Asia/Seoul", "Mars/Olympus"), "zone: 'Mars/Olympus' is not a time zone"),
        (GOOD.replace("max_days: 3", "max_days: 0"), "assignments.1.late.max_days: must be a positive number"),
        (GOOD.replace("late: {", "late: {extra: 1, "), "assignments.1.late"),
        (GOOD.replace("    title: Loops\n", ""), "assignments.0.title: missing"),
        (GOOD.replace("zone:", "zones:"), "zones: unknown key"),
        ("- just a list\n", "must be a mapping"),
        ("assignments: [\n", "line"),
    ],
)
def test_a_malformed_file_is_one_line_naming_it(tmp_path: Path, text: str, line: str) -> None:
    path = write(tmp_path, text)
    with pytest.raises(JudgeError) as raised:
        read_course(path, {"1000", "1001", "2000"})
    message = str(raised.value)
    assert message.startswith(f"{path}: ")
    assert line in message
    assert "\n" not in message


def test_late_refuse_is_the_only_word(tmp_path: Path) -> None:
    with pytest.raises(JudgeError, match=re.escape("assignments.1.late: 'accept' is no late policy; write refuse, or")):
        read_course(write(tmp_path, GOOD.replace("late: {percent_per_day: 10, max_days: 3}", "late: accept")))
