"""extensions.csv and the teacher's form, checked alike; and an assignment's state for one student."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

from judge.course.extensions import read_extensions
from judge.course.late_policy import DAY
from judge.course.model import Assignment, Course, Extension, LatePolicy
from judge.course.state import state_of, submission_refusal
from judge.errors import JudgeError

SEOUL = ZoneInfo("Asia/Seoul")
DUE = datetime(2026, 3, 9, 23, 59, tzinfo=SEOUL).timestamp()
WEEK = Assignment("week1", "Loops", ("A",), DUE - 7 * DAY, DUE, LatePolicy(percent_per_day=10, max_days=2))
COURSE = Course(assignments=(WEEK,), zone="Asia/Seoul")
STUDENTS = ("kim", "lee")


def read(tmp_path: Path, text: str) -> tuple[Extension, ...]:
    path = tmp_path / "extensions.csv"
    path.write_text(text)
    return read_extensions(path, COURSE, STUDENTS)


def test_rows_read_in_the_course_zone(tmp_path: Path) -> None:
    found = read(tmp_path, "student,assignment,due\nkim,week1,2026-03-12 23:59\n")
    assert found == (Extension("kim", "week1", DUE + 3 * DAY),)
    assert read_extensions(tmp_path / "none.csv", COURSE, STUDENTS) == ()


@pytest.mark.parametrize(
    ("text", "line"),
    [
        ("id,assignment,due\n", "the first line must name the columns student,assignment,due"),
        ("student,assignment,due\npark,week1,2026-03-12 23:59\n", ":2: student: 'park' is not on the roster"),
        ("student,assignment,due\nkim,week9,2026-03-12 23:59\n", ":2: assignment: no assignment 'week9'"),
        ("student,assignment,due\nkim,week1,friday\n", ":2: due: 'friday' is not a time"),
        ("student,assignment,due\nkim,week1,2026-03-09 23:00\n", ":2: due: 2026-03-09 23:00 is not after"),
        ("student,assignment,due\nkim,week1\n", ":2: give three fields"),
        (
            "student,assignment,due\nkim,week1,2026-03-12 23:59\nkim,week1,2026-03-13 23:59\n",
            ":3: 'kim' has a second extension for 'week1'",
        ),
    ],
)
def test_a_malformed_row_is_one_line_naming_the_file_and_line(tmp_path: Path, text: str, line: str) -> None:
    with pytest.raises(JudgeError) as raised:
        read(tmp_path, text)
    assert str(raised.value).startswith(str(tmp_path / "extensions.csv"))
    assert line in str(raised.value)


@pytest.mark.parametrize(
    ("moment", "phase", "refusal"),
    [
        (DUE - 8 * DAY, "not open yet", "assignment 'Loops' opens at 2026-03-02 14:59 UTC; submit then"),
        (DUE - DAY, "open", ""),
        (DUE + DAY, "late", ""),
        (
            DUE + 2 * DAY + 1,
            "closed",
            "the assignment closed at 2026-03-11 14:59 UTC; no more submissions are accepted",
        ),
    ],
)
def test_the_state_and_the_refusal_agree(moment: float, phase: str, refusal: str) -> None:
    assert state_of(COURSE, WEEK, "lee", moment).phase == phase
    assert submission_refusal(COURSE, "A", "lee", moment) == refusal
    assert submission_refusal(COURSE, "B", "lee", moment) is None  # in no assignment: the contest window decides


def test_an_extension_is_that_students_alone_and_the_last_one_wins() -> None:
    extended = Course(
        assignments=(WEEK,),
        extensions=(Extension("kim", "week1", DUE + DAY), Extension("kim", "week1", DUE + 5 * DAY)),
    )
    kim, lee = (state_of(extended, WEEK, student, DUE + 4 * DAY) for student in ("kim", "lee"))
    assert (kim.phase, kim.extended, kim.due) == ("open", True, DUE + 5 * DAY)
    assert (lee.phase, lee.extended, lee.due) == ("closed", False, DUE)
