"""The records of a course. They are read from the teacher's files (and serve's teacher page) and turned into
grades by the modules beside this one; the exports (grades.csv, Canvas's and Moodle's CSV files) only present
them."""

from __future__ import annotations

from collections.abc import Mapping

from msgspec import Struct, field


class LatePolicy(Struct, frozen=True):
    """What happens after an assignment's due time. `max_days` 0 refuses every late submission; otherwise one is
    accepted until `max_days` days after the due time (the hard deadline), with `percent_per_day` % of its credit
    taken off for each day, or part of a day, it is late."""

    percent_per_day: float = 0.0
    max_days: float = 0.0

    @property
    def refuses_late(self) -> bool:
        return self.max_days == 0


class Assignment(Struct, frozen=True):
    """Problems handed out together: open from `opens` (None: from the start) and due at `due` (Unix times)."""

    id: str
    title: str
    problems: tuple[str, ...]
    opens: float | None
    due: float
    late: LatePolicy = LatePolicy()


class Extension(Struct, frozen=True):
    """One student's own due time for one assignment; the late policy counts from it."""

    student: str
    assignment: str
    due: float


class Course(Struct, frozen=True):
    """Every assignment, in the teacher's order, and every extension granted. A problem is in at most one
    assignment; one in none follows the server's contest window."""

    assignments: tuple[Assignment, ...] = ()
    extensions: tuple[Extension, ...] = ()
    zone: str = "UTC"
    """The time zone the teacher writes the course's times in (assignments.yaml's `zone:`)."""

    def assignment_of(self, problem_id: str) -> Assignment | None:
        """The assignment `problem_id` is in (None: in none, so the server's contest window applies)."""
        return next((each for each in self.assignments if problem_id in each.problems), None)

    def due_for(self, student: str, assignment: Assignment) -> float:
        """`student`'s due time for `assignment`: their extension's when they have one, else the assignment's.
        The last extension listed wins (serve lists the teacher page's after the file's)."""
        granted = [each.due for each in self.extensions if each.student == student and each.assignment == assignment.id]
        return granted[-1] if granted else assignment.due


class AssignmentGrade(Struct, frozen=True):
    """A student's grade for one assignment, after late credit: `points` of `max_points`, and `rule`, the rule
    that made it, in words a student and an LMS column can carry (for example "on time", or "2 days late: 80 %
    (10 % a day, at most 3 days)")."""

    student: str
    assignment: str
    points: float
    max_points: float
    rule: str


class CourseGrades(Struct, frozen=True):
    """Every student's grade for every assignment, by (student id, assignment id)."""

    assignments: tuple[Assignment, ...]
    grades: Mapping[tuple[str, str], AssignmentGrade] = field(default_factory=dict)
