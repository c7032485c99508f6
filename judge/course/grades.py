"""A course's grades from its attempts: per student and assignment, each problem's best credited fraction (the
attempt's fraction times its late factor), summed over the assignment's problems and scaled to 100 points. Every
grade carries the rule that made it, so a student and an LMS column can tell an on-time 80 from a late one.

serve's exports and `judge grade` both call `course_grades`; what an attempt's fraction is (AC or not, a scored
problem's points) is theirs to say."""

from __future__ import annotations

import math
from collections.abc import Iterable

from msgspec import Struct

from judge.course.late_policy import Credit, credit, hard_deadline
from judge.course.model import Assignment, AssignmentGrade, Course, CourseGrades

MAX_POINTS = 100.0
NOT_SUBMITTED = "not submitted"
ONLY_AFTER_CLOSING = "submitted only after the assignment closed: no credit"


class Attempt(Struct, frozen=True):
    """One stored submission: `fraction` (0..1) of its problem's full credit, before any late factor."""

    student: str
    problem_id: str
    submitted_at: float
    fraction: float


class _Best(Struct, frozen=True):
    """The attempt that gives a problem its credit, and the credit it gets."""

    credited: float
    credit: Credit


def course_grades(
    course: Course, attempts: Iterable[Attempt], students: Iterable[str], now: float | None = None
) -> CourseGrades:
    """Every listed student's grade for every assignment. An attempt the late policy refuses (serve never stores
    one; a class folder might hold one) counts for nothing; attempts of students or problems outside the course
    are ignored. With `now`, an assignment a student has not submitted to and may still submit to (its hard
    deadline, their extension counted, is after `now`) has no grade yet: an LMS import leaves its cell alone
    instead of recording a 0 for work that is not due. A problem in no assignment (due never) is graded as
    before: 0 when nothing was submitted."""
    by_student_problem: dict[tuple[str, str], list[Attempt]] = {}
    for attempt in attempts:
        by_student_problem.setdefault((attempt.student, attempt.problem_id), []).append(attempt)
    grades: dict[tuple[str, str], AssignmentGrade] = {}
    for student in students:
        for assignment in course.assignments:
            due = course.due_for(student, assignment)
            bests = {
                problem: _best(by_student_problem.get((student, problem), ()), due, assignment)
                for problem in assignment.problems
            }
            closes = hard_deadline(due, assignment.late)
            if now is not None and not any(bests.values()) and math.isfinite(closes) and closes > now:
                continue
            points = sum(best.credited for best in bests.values() if best) * MAX_POINTS / len(assignment.problems)
            grades[student, assignment.id] = AssignmentGrade(
                student, assignment.id, round(points, 6), MAX_POINTS, _rule_of(bests)
            )
    return CourseGrades(assignments=course.assignments, grades=grades)


def _best(attempts: Iterable[Attempt], due: float, assignment: Assignment) -> _Best | None:
    """The attempt with the most credit; of equal credit, the one with the better factor (an on-time 0 says
    more than a late 0), then the earliest."""
    best: tuple[tuple[float, float, float], _Best] | None = None
    refused_only: _Best | None = None
    for attempt in attempts:
        worth = credit(attempt.submitted_at, due, assignment.late)
        if worth.refused:  # counted for nothing, but the grade says why, not "not submitted"
            refused_only = _Best(0.0, Credit(0.0, ONLY_AFTER_CLOSING, refused=True))
            continue
        credited = max(0.0, min(1.0, attempt.fraction)) * worth.factor
        key = (credited, worth.factor, -attempt.submitted_at)
        if best is None or key > best[0]:
            best = (key, _Best(credited, worth))
    return refused_only if best is None else best[1]


def _rule_of(bests: dict[str, _Best | None]) -> str:
    """The rule of the attempts that made the grade: one rule when all problems share it, else each problem's."""
    rules = {problem: best.credit.rule if best else NOT_SUBMITTED for problem, best in bests.items()}
    distinct = set(rules.values())
    if len(distinct) == 1:
        return distinct.pop()
    return "; ".join(f"{problem}: {rule}" for problem, rule in rules.items())
