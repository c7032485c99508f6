"""The gradebook: the stored results of one class as a student x problem table (its views: reporters/gradebook/).

Scoring: a pair on a scored problem scores its score as a fraction of the most (50/100 is 0.5); on other
problems a pair scores 1 when accepted and 0 otherwise; with `partial`, a pair that is not accepted scores the
fraction of the problem's tests it passed (a compile error passes none). A student's score is the sum over the
problems, so a missing submission counts 0 and an empty cell in grades.csv means "nothing was submitted".
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from judge import __version__
from judge.batch.tasks import Pair
from judge.class_folder import ClassFolder, Unmatched
from judge.grading.results_db import StoredResult
from judge.problems.model import Problem
from judge.verdicts import Verdict

if TYPE_CHECKING:  # judge.stress imports the judging engine, which the gradebook never needs
    from judge.stress import StressReport


@dataclass(frozen=True)
class ProblemColumn:
    """What the gradebook shows about a problem."""

    id: str
    title: str
    time_limit: float
    tests: int


@dataclass(frozen=True)
class Gradebook:
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
        report = result.result
        if report is not None and report.score is not None and report.max_score:
            return report.score / report.max_score  # a scored problem: its score, as a fraction of the most
        if result.verdict is Verdict.AC:
            return 1.0
        if self.partial and result.tests_total:
            return result.tests_passed / result.tests_total
        return 0.0

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
        return {
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


def format_score(score: float) -> str:
    """`3` for whole scores, `2.667` for partial ones."""
    return f"{round(score, 3):g}"
