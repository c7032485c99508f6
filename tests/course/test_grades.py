"""course_grades: the best credited fraction per problem, scaled to 100 per assignment, with the rule that made it."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from judge.course.grades import ONLY_AFTER_CLOSING, Attempt, course_grades
from judge.course.late_policy import DAY
from judge.course.model import Assignment, Course, Extension, LatePolicy

DUE = 1_800_000_000.0
WEEK = Assignment("week1", "Loops", ("A", "B"), None, DUE, LatePolicy(percent_per_day=10, max_days=3))
STRICT = Assignment("week2", "Sorting", ("C",), None, DUE, LatePolicy())
COURSE = Course(assignments=(WEEK, STRICT), extensions=(Extension("kim", "week1", DUE + 2 * DAY),))


def grade(attempts: list[Attempt], student: str = "lee", assignment: str = "week1") -> tuple[float, str]:
    found = course_grades(COURSE, attempts, ["lee", "kim"]).grades[student, assignment]
    assert found.max_points == 100
    return found.points, found.rule


def test_on_time_full_marks() -> None:
    assert grade([Attempt("lee", "A", DUE - 5, 1.0), Attempt("lee", "B", DUE, 1.0)]) == (100, "on time")


def test_a_late_solve_counts_with_its_credit_and_says_which_problem_was_late() -> None:
    points, rule = grade([Attempt("lee", "A", DUE - 5, 1.0), Attempt("lee", "B", DUE + DAY + 1, 1.0)])
    assert points == pytest.approx(90)
    assert rule == "A: on time; B: 2 days late: 80 % (10 % a day, at most 3 days)"


def test_the_best_credit_wins_over_a_later_full_solve() -> None:
    attempts = [
        Attempt("lee", "A", DUE - 5, 0.9),
        Attempt("lee", "A", DUE + 2 * DAY, 1.0),  # 80 % of 1.0 < 0.9 on time
        Attempt("lee", "B", DUE - 5, 0.9),
    ]
    assert grade(attempts) == (pytest.approx(90), "on time")


def test_an_extension_moves_the_due_time_for_that_student_only() -> None:
    attempts = [Attempt(student, problem, DUE + DAY, 1.0) for student in ("lee", "kim") for problem in "AB"]
    assert grade(attempts, "kim") == (100, "on time")
    assert grade(attempts, "lee") == (pytest.approx(90), "1 day late: 90 % (10 % a day, at most 3 days)")


def test_a_refused_attempt_counts_for_nothing_and_the_grade_says_why() -> None:
    points, rule = grade([Attempt("lee", "C", DUE + 1, 1.0)], assignment="week2")
    assert (points, rule) == (0, ONLY_AFTER_CLOSING)
    assert grade([Attempt("lee", "A", DUE + 3 * DAY + 1, 1.0)]) == (0, f"A: {ONLY_AFTER_CLOSING}; B: not submitted")


def test_nothing_submitted_and_other_students_ignored() -> None:
    grades = course_grades(COURSE, [Attempt("park", "A", DUE, 1.0), Attempt("lee", "Z", DUE, 1.0)], ["lee"])
    assert set(grades.grades) == {("lee", "week1"), ("lee", "week2")}
    assert grades.grades["lee", "week1"].points == 0
    assert grades.assignments == (WEEK, STRICT)


attempts = st.lists(
    st.builds(
        Attempt,
        student=st.sampled_from(["lee", "kim"]),
        problem_id=st.sampled_from(["A", "B", "C"]),
        submitted_at=st.floats(min_value=DUE - 2 * DAY, max_value=DUE + 5 * DAY),
        fraction=st.floats(min_value=0, max_value=1),
    ),
    max_size=12,
)


@given(attempts, st.floats(min_value=DUE, max_value=DUE + 5 * DAY))
def test_points_stay_within_0_and_100_and_an_extension_never_lowers_a_grade(tried: list[Attempt], due: float) -> None:
    plain = course_grades(Course(assignments=(WEEK, STRICT)), tried, ["lee", "kim"])
    extended = course_grades(
        Course(assignments=(WEEK, STRICT), extensions=(Extension("lee", "week1", due), Extension("lee", "week2", due))),
        tried,
        ["lee", "kim"],
    )
    for key, grade in plain.grades.items():
        assert 0 <= grade.points <= 100
        assert extended.grades[key].points >= grade.points - 1e-9


def test_work_not_yet_due_has_no_grade_so_an_lms_import_leaves_it_alone() -> None:
    """Before week1's hard deadline (DUE + 3 days; kim's extension moves hers to DUE + 5 days), nobody has a 0
    for it; a submission already made is graded; week2 (late refused) is closed at DUE + 1 and counts 0."""
    now = DUE + 4 * DAY
    grades = course_grades(COURSE, [Attempt("lee", "C", DUE - 5, 1.0)], ["lee", "kim"], now=now).grades
    assert ("kim", "week1") not in grades  # her extension: open until DUE + 5 days
    assert grades["lee", "week1"].points == 0 and grades["lee", "week1"].rule == "not submitted"  # closed
    assert grades["lee", "week2"].points == 100
    assert grades["kim", "week2"].rule == "not submitted"
    early = course_grades(COURSE, [Attempt("lee", "A", DUE - 5, 1.0)], ["lee", "kim"], now=DUE - 1).grades
    assert set(early) == {("lee", "week1")}
