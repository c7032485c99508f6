"""Where an assignment stands for one student at a moment (not open yet, open, late, closed), with the student's
extension counted: what serve's submit refuses and what its pages show, decided in one place."""

from __future__ import annotations

from typing import Literal

from msgspec import Struct

from judge.course.late_policy import credit, hard_deadline
from judge.course.model import Assignment, Course
from judge.course.times import shown_time

Phase = Literal["not open yet", "open", "late", "closed"]


class AssignmentState(Struct, frozen=True):
    """`due` is this student's (their extension's when `extended`); `closes` the hard deadline that follows from
    it; `credit_now` the rule a submission at the moment would earn (late: its percentage and the policy)."""

    assignment: Assignment
    phase: Phase
    due: float
    closes: float
    extended: bool
    credit_now: str


def state_of(course: Course, assignment: Assignment, student: str, now: float) -> AssignmentState:
    due = course.due_for(student, assignment)
    closes = hard_deadline(due, assignment.late)
    worth = credit(now, due, assignment.late)
    phase: Phase
    if assignment.opens is not None and now < assignment.opens:
        phase = "not open yet"
    elif worth.refused:
        phase = "closed"
    elif worth.days_late:
        phase = "late"
    else:
        phase = "open"
    return AssignmentState(assignment, phase, due, closes, due != assignment.due, worth.rule)


def states(course: Course, student: str, now: float) -> list[AssignmentState]:
    """Every assignment's state for `student`, in the teacher's order."""
    return [state_of(course, assignment, student, now) for assignment in course.assignments]


def submission_refusal(course: Course, problem_id: str, student: str, now: float) -> str | None:
    """Why `student` may not submit to `problem_id` at `now` ("" when they may), in one line that says when the
    assignment opens or closed; None when the problem is in no assignment (the server's contest window decides)."""
    assignment = course.assignment_of(problem_id)
    if assignment is None:
        return None
    if assignment.opens is not None and now < assignment.opens:
        return f"assignment {assignment.title!r} opens at {shown_time(assignment.opens)}; submit then"
    worth = credit(now, course.due_for(student, assignment), assignment.late)
    return worth.rule if worth.refused else ""
