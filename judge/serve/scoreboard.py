"""The scoreboard: ICPC style for pass-fail problems (problems solved, penalty minutes, attempts) and points for
scored ones (a problem's best score).

ICPC's rules: a problem counts once, at its first accepted submission; its penalty is the minutes from the start
to that submission plus 20 for each rejected one before it. Compile errors and the judge's own failures (JE) are
not attempts: they say nothing about the solution. Ranking: more problems solved, then more points, then less
penalty; equal rows share a rank. During the freeze, a student sees other students' submissions from the freeze
on as pending, not their verdicts (the teacher sees everything).

A problem of an assignment follows the course's late rule (course/late_policy.py), with each student's extension:
a submission past the hard deadline counts as never made (serve refuses it; one stored before the deadline moved
is left out too), and a late one counts with its credit. A scored problem's points are its best score times the
late factor. On the pass/fail columns a late accepted submission is a solve like any other (ICPC has no partial
credit: solved, penalty and rank are unchanged by lateness), and its cell says it was late and its credit
(`late 80 %`); the grades (course/grades.py) are where the credit counts.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Mapping, Sequence

from msgspec import Struct

from judge.course.late_policy import Credit, credit, credit_percent
from judge.course.model import Course
from judge.serve.store import StoredSubmission
from judge.verdicts import Verdict

PENALTY_MINUTES = 20
NOT_ATTEMPTS = (Verdict.CE, Verdict.JE)


class Cell(Struct, frozen=True):
    """One student's standing on one problem."""

    solved: bool
    attempts: int
    """Rejected submissions before the first accepted one (all of them when unsolved)."""
    minutes: int | None
    """When it was solved, from the start."""
    points: float | None
    """The best score on a scored problem (None: a pass-fail problem, or nothing scored yet)."""
    pending: int
    """Submissions still being judged (or hidden by the freeze)."""
    late: str = ""
    """A late solve's credit (`late 80 %`); "" on time, or for a problem in no assignment."""


class Row(Struct, frozen=True):
    rank: int
    student: str
    name: str
    solved: int
    penalty: int
    points: float
    cells: Mapping[str, Cell]


class Scoreboard(Struct, frozen=True):
    problems: tuple[str, ...]
    rows: tuple[Row, ...]
    frozen: bool
    """This viewer sees it frozen (a student, past the freeze)."""
    scored: bool = False
    """Some problem is scored: the board has a points column (a pass/fail contest has none)."""
    frozen_since: float | None = None
    """When students' view froze (None: it has not): what the teacher, who sees through it, is told."""
    late_rule: bool = False
    """Some problem is in an assignment: a late solve is marked (the legend says how)."""


def build(
    submissions: Sequence[StoredSubmission],
    students: Mapping[str, str],
    problems: Sequence[str],
    *,
    start: float,
    freeze_at: float | None,
    viewer: str | None,
    scored: bool = False,
    course: Course | None = None,
) -> Scoreboard:
    """The scoreboard as `viewer` may see it (None: the teacher, who sees through the freeze). `students` maps
    ids to names; submissions in any order; the problems of `course`'s assignments follow its late rule."""
    by_pair: defaultdict[tuple[str, str], list[StoredSubmission]] = defaultdict(list)
    for submission in sorted(submissions, key=lambda submission: submission.id):
        by_pair[(submission.student, submission.problem_id)].append(submission)
    rows = []
    for student, name in students.items():
        cells = {
            problem: _cell(
                by_pair.get((student, problem), []),
                start,
                freeze_at if viewer not in (None, student) else None,
                _worth(course, student, problem),
            )
            for problem in problems
        }
        solved = sum(cell.solved for cell in cells.values())
        penalty = sum((cell.minutes or 0) + PENALTY_MINUTES * cell.attempts for cell in cells.values() if cell.solved)
        points = sum(cell.points or 0.0 for cell in cells.values())
        rows.append((student, name, solved, penalty, round(points, 6), cells))
    rows.sort(key=lambda row: (-row[2], -row[4], row[3], row[0]))
    ranked, rank, previous = [], 0, None
    for position, (student, name, solved, penalty, points, cells) in enumerate(rows, start=1):
        if (solved, points, penalty) != previous:
            rank, previous = position, (solved, points, penalty)
        ranked.append(Row(rank, student, name, solved, penalty, points, cells))
    return Scoreboard(
        tuple(problems),
        tuple(ranked),
        frozen=freeze_at is not None and viewer is not None,
        scored=scored,
        frozen_since=freeze_at,
        late_rule=course is not None and any(course.assignment_of(problem) for problem in problems),
    )


def _worth(course: Course | None, student: str, problem: str) -> Callable[[float], Credit] | None:
    """The late rule for `student` on `problem` (None: the problem is in no assignment)."""
    assignment = None if course is None else course.assignment_of(problem)
    if course is None or assignment is None:
        return None
    due = course.due_for(student, assignment)
    return lambda submitted_at: credit(submitted_at, due, assignment.late)


def _cell(
    submissions: Sequence[StoredSubmission],
    start: float,
    hidden_from: float | None,
    worth: Callable[[float], Credit] | None,
) -> Cell:
    attempts, pending, points = 0, 0, None
    for submission in submissions:
        late = worth(submission.submitted_at) if worth is not None else None
        if late is not None and late.refused:
            continue
        if submission.status != "done" or (hidden_from is not None and submission.submitted_at >= hidden_from):
            pending += 1
            continue
        factor = late.factor if late is not None else 1.0
        result = submission.result
        if result is not None and result.score is not None:
            points = max(points or 0.0, round(result.score * factor, 6))
        if submission.verdict is Verdict.AC:
            minutes = max(0, int((submission.submitted_at - start) // 60))
            shown = f"late {credit_percent(late)}" if late is not None and late.days_late else ""
            return Cell(True, attempts, minutes, points, pending, shown)
        if submission.verdict not in NOT_ATTEMPTS:
            attempts += 1
    return Cell(False, attempts, None, points, pending)
