"""The gradebook: the stored results of one class as a student x problem table (its views: reporters/gradebook/).

Scoring: a pair on a scored problem scores its score as a fraction of the most (50/100 is 0.5); on other
problems a pair scores 1 when accepted and 0 otherwise; with `partial`, a pair that is not accepted scores the
fraction of the problem's tests it passed (a compile error passes none). A student's score is the sum over the
problems, so a missing submission counts 0 and an empty cell in grades.csv means "nothing was submitted".
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Mapping
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from msgspec import Struct, field
from msgspec.structs import asdict

from judge import __version__
from judge.batch.tasks import Pair
from judge.class_folder import ClassFolder, Unmatched
from judge.course.model import Assignment, CourseGrades
from judge.course.roster import Roster
from judge.grading.results_db import StoredResult
from judge.judging.results import SubmissionResult
from judge.problems.model import Problem
from judge.verdicts import Verdict

if TYPE_CHECKING:  # judge.stress imports the judging engine, which the gradebook never needs
    from judge.stress import StressReport


class ProblemColumn(Struct, frozen=True):
    """What the gradebook shows about a problem."""

    id: str
    title: str
    time_limit: float
    tests: int


class Gradebook(Struct, frozen=True):
    """Every student of the class, every problem, and the stored result of each pair that was submitted."""

    problems: tuple[ProblemColumn, ...]
    students: tuple[str, ...]
    results: Mapping[Pair, StoredResult]
    unmatched: tuple[Unmatched, ...]
    layout: str
    partial: bool
    generated_at: str
    stress: Mapping[Pair, StressReport | str] = field(default_factory=dict)
    """With `judge grade --stress`: per WA pair, the smallest failing input found, or why there is none."""
    roster: Roster | None = None
    """The class list whose names, e-mails, SIS ids and sections the views carry (None: the folder names only)."""
    course: CourseGrades | None = None
    """Each student's points per assignment after late credit, and the rule that gave them (None: not graded as a
    course; `judge grade` and serve's export always grade one, each problem its own assignment without one)."""
    assignments_file: str | None = None
    """The assignments file the course was read from (None: each problem is its own assignment, due never)."""

    @classmethod
    def build(
        cls,
        problems: Mapping[str, Problem],
        class_folder: ClassFolder,
        stored: Mapping[Pair, StoredResult],
        *,
        partial: bool,
    ) -> Gradebook:
        """The gradebook of the pairs `class_folder` holds now (rows of files since removed are left out)."""
        pairs = [(submission.student, submission.problem_id) for submission in class_folder.submissions]
        return cls(
            problems=tuple(
                ProblemColumn(problem.id, problem.spec.title, problem.spec.time_limit, len(problem.tests))
                for problem in problems.values()
            ),
            students=class_folder.students,
            results={pair: stored[pair] for pair in pairs},
            unmatched=class_folder.unmatched,
            layout=class_folder.layout,
            partial=partial,
            generated_at=datetime.now(UTC).isoformat(timespec="seconds"),
        )

    def result(self, student: str, problem_id: str) -> StoredResult | None:
        return self.results.get((student, problem_id))

    def pair_score(self, result: StoredResult) -> float:
        return fraction(result.verdict, result.result, result.tests_passed, result.tests_total, partial=self.partial)

    @property
    def max_score(self) -> int:
        """What a student who solved everything scores: 1 per problem."""
        return len(self.problems)

    def score(self, student: str) -> float:
        return sum(self.pair_score(result) for (name, _), result in self.results.items() if name == student)

    def verdict_counts(self, problem_id: str) -> Counter[Verdict]:
        return Counter(result.verdict for (_, pid), result in self.results.items() if pid == problem_id)

    @property
    def judge_failed(self) -> bool:
        """Whether the judge failed on any pair (exit status 3)."""
        return any(result.verdict is Verdict.JE for result in self.results.values())

    def to_dict(self) -> dict[str, Any]:
        document = {
            "judge_version": __version__,
            "generated_at": self.generated_at,
            "layout": self.layout,
            "scoring": "partial" if self.partial else "accepted",
            "max_score": self.max_score,
            "problems": [asdict(problem) for problem in self.problems],
            "students": [
                {
                    "name": student,
                    "score": round(self.score(student), 6),
                    "results": {
                        problem.id: self._pair_dict(result)
                        for problem in self.problems
                        if (result := self.result(student, problem.id)) is not None
                    },
                }
                for student in self.students
            ],
            "unmatched": [{"path": item.relative, "reason": item.reason} for item in self.unmatched],
        }
        return self._with_course(document) if self.roster is not None or self.course is not None else document

    def _with_course(self, document: dict[str, Any]) -> dict[str, Any]:
        """The roster's columns on each student, and the course: its assignments, each student's points per
        assignment after late credit and the rule that gave them."""
        rows = self.roster.by_id() if self.roster is not None else {}
        columns = [column for column in ROSTER_FIELDS if self.roster is not None and self.roster.has(column)]
        for entry in document["students"]:
            if (row := rows.get(entry["name"])) is not None:
                entry["roster"] = {"name": row.name, **{column: getattr(row, column) for column in columns}}
            if self.course is not None:
                entry["assignments"] = {
                    grade.assignment: {"points": grade.points, "max_points": grade.max_points, "rule": grade.rule}
                    for assignment in self.course.assignments
                    if (grade := self.course.grades.get((entry["name"], assignment.id))) is not None
                }
        if self.course is not None:
            document["assignments_file"] = self.assignments_file
            document["assignments"] = [_assignment_dict(assignment) for assignment in self.course.assignments]
        return document

    def _pair_dict(self, result: StoredResult) -> dict[str, Any]:
        return {
            "verdict": result.verdict.short,
            "score": round(self.pair_score(result), 6),
            "tests_passed": result.tests_passed,
            "tests_total": result.tests_total,
            "source_path": result.fingerprint.source_path,
            "source_sha256": result.fingerprint.source_sha256,
            "problem_hash": result.fingerprint.problem_hash,
            "judge_version": result.fingerprint.judge_version,
            "judged_at": result.judged_at,
            "worker": result.worker,
            "error": result.error,
            "report": result.result.to_dict() if result.result is not None else None,
        }


def fraction(
    verdict: Verdict, report: SubmissionResult | None, tests_passed: int, tests_total: int, *, partial: bool
) -> float:
    """What a judged submission scores, 0..1 (the module's docstring): one rule for a gradebook's pairs and for
    every submission serve's export grades by the late policy."""
    if report is not None and report.score is not None and report.max_score:
        return report.score / report.max_score  # a scored problem: its score, as a fraction of the most
    if verdict is Verdict.AC:
        return 1.0
    if partial and tests_total:
        return tests_passed / tests_total
    return 0.0


ROSTER_FIELDS = ("email", "sis_id", "section")
"""The roster's optional columns grades.json repeats when the roster has them (never the password)."""


def _assignment_dict(assignment: Assignment) -> dict[str, Any]:
    """An assignment as JSON: a time as Unix seconds, None for no opening time or no due time (never Infinity)."""
    return {
        "id": assignment.id,
        "title": assignment.title,
        "problems": list(assignment.problems),
        "opens": assignment.opens,
        "due": assignment.due if math.isfinite(assignment.due) else None,
        "late": {"percent_per_day": assignment.late.percent_per_day, "max_days": assignment.late.max_days},
    }


def format_score(score: float) -> str:
    """`3` for whole scores, `2.667` for partial ones."""
    return f"{round(score, 3):g}"
