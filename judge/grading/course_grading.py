"""A gradebook graded as a course: the roster's students and columns, and each student's points per assignment
after late credit (judge/course/grades.py), for the views an LMS imports (canvas.csv, moodle.csv) and grades.csv.

`judge grade` and serve's export both come through here, so a class folder and the server's store give the same
grades for the same submissions at the same times. A class folder has one file per student and problem, submitted
when it was last modified (its modification time); the server gives every judged submission with the time it
stored it. Problems in no assignment (all of them without an assignments file) are each an assignment of their
own, due never, so a plain class still exports a column per problem.
"""

from __future__ import annotations

import math
import time
from collections.abc import Iterable, Mapping, Sequence

import msgspec.structs

from judge.course.grades import Attempt, course_grades
from judge.course.model import Assignment, Course
from judge.course.roster import Roster
from judge.errors import JudgeError
from judge.grading.gradebook import Gradebook
from judge.problems.model import Problem


def graded_course(course: Course, problems: Mapping[str, Problem], assignments_file: str | None) -> Course:
    """`course` with each problem that is in none of its assignments as one of its own (id and title the
    problem's, open from the start, due never); JudgeError when such a problem's id is an assignment's too."""
    covered = {problem for assignment in course.assignments for problem in assignment.problems}
    taken = {assignment.id for assignment in course.assignments}
    own = []
    for problem_id, problem in problems.items():
        if problem_id in covered:
            continue
        if problem_id in taken:
            raise JudgeError(
                f"{assignments_file}: the assignment id {problem_id!r} is also a problem's that no assignment holds; "
                "give the assignment another id"
            )
        own.append(Assignment(problem_id, problem.spec.title or problem_id, (problem_id,), None, math.inf))
    return msgspec.structs.replace(course, assignments=course.assignments + tuple(own))


def class_students(found: Sequence[str], roster: Roster | None) -> tuple[str, ...]:
    """The roster's students in its order, then those with a folder but not on the roster (shown, never dropped:
    a misnamed folder is a row the teacher sees)."""
    listed = tuple(row.id for row in roster.rows) if roster is not None else ()
    on_roster = set(listed)
    return listed + tuple(student for student in found if student not in on_roster)


def folder_attempts(gradebook: Gradebook, submitted_at: Mapping[tuple[str, str], float]) -> list[Attempt]:
    """One attempt per graded pair: its score as a fraction of the problem's, at `submitted_at[pair]`."""
    return [
        Attempt(student, problem_id, submitted_at[student, problem_id], gradebook.pair_score(result))
        for (student, problem_id), result in gradebook.results.items()
    ]


def as_course(
    gradebook: Gradebook,
    course: Course,
    attempts: Iterable[Attempt],
    roster: Roster | None,
    assignments_file: str | None,
) -> Gradebook:
    """`gradebook` with the roster's students and the course's grades (`course` as `graded_course` made it)."""
    students = class_students(gradebook.students, roster)
    return msgspec.structs.replace(
        gradebook,
        students=students,
        roster=roster,
        course=course_grades(course, attempts, students, now=time.time()),
        assignments_file=assignments_file,
    )
