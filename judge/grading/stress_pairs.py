"""`judge grade --stress`: for every WA pair, the smallest failing input `judge stress` finds, for the pair's page.

Run in the grading process after the batch, one pair at a time (each is a search, not a test run), with a fixed
seed so a rerun shows the same input. What a search needs whatever the submission (the problem's strategy.py or
generator.py, an accepted reference) is resolved once per problem: a problem without it is told once, its pairs are
not searched, and each of its pages shows the one-line reason. A search the judge fails at leaves its reason on
that pair's page; neither fails the grading.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Protocol

from judge.batch.tasks import Pair
from judge.class_folder import ClassFolder, Submission
from judge.errors import JudgeError
from judge.grading.results_db import StoredResult
from judge.judging.failures import JUDGE_FAILURES, JudgeFailure, reason
from judge.options import RunOptions
from judge.problems.model import Problem
from judge.stress import SearchSetup, StressReport, StressRequest, search_setup, stress
from judge.verdicts import Verdict

STRESS_SEED = 0
MAX_EXAMPLES = 200


class StressListener(Protocol):
    """Told as `--stress` goes (the terminal's lines)."""

    def searched(self, pair: Pair, found: StressReport | str) -> None:
        """A pair's finding, or why its search failed, as soon as its search ends."""

    def unsearchable(self, problem_id: str, reason: str, pairs: int) -> None:
        """Once per problem that cannot be searched: why, and how many WA pairs were therefore not searched."""


def minimal_inputs(
    problems: Mapping[str, Problem],
    class_folder: ClassFolder,
    results: Mapping[Pair, StoredResult],
    budget_seconds: float,
    submissions_dir: Path,
    options: RunOptions,
    told: StressListener | None = None,
) -> dict[Pair, StressReport | str]:
    """A stress report (or why there is none) for every pair whose verdict is WA."""
    found: dict[Pair, StressReport | str] = {}
    for problem_id, submissions in _wrong_answers(class_folder, results).items():
        problem = problems[problem_id]
        try:
            setup = search_setup(problem, None, submissions_dir)
        except (JudgeError, *JUDGE_FAILURES) as error:
            why = _why(error)
            found.update({(submission.student, problem_id): why for submission in submissions})
            if told:
                told.unsearchable(problem_id, why, len(submissions))
            continue
        for submission in submissions:
            pair = (submission.student, problem_id)
            found[pair] = _search(problem, submission, setup, budget_seconds, submissions_dir, options)
            if told:
                told.searched(pair, found[pair])
    return found


def _wrong_answers(class_folder: ClassFolder, results: Mapping[Pair, StoredResult]) -> dict[str, list[Submission]]:
    """The WA submissions by problem, each problem where its first one is in the class folder's order."""
    by_problem: dict[str, list[Submission]] = {}
    for submission in class_folder.submissions:
        result = results.get((submission.student, submission.problem_id))
        if result is not None and result.verdict is Verdict.WA:
            by_problem.setdefault(submission.problem_id, []).append(submission)
    return by_problem


def _search(
    problem: Problem,
    submission: Submission,
    setup: SearchSetup,
    budget_seconds: float,
    submissions_dir: Path,
    options: RunOptions,
) -> StressReport | str:
    request = StressRequest(
        problem=problem,
        source=submission.path,
        reference=setup.reference,
        submissions_dir=submissions_dir,
        budget_seconds=budget_seconds,
        max_examples=MAX_EXAMPLES,
        seed=STRESS_SEED,
        options=options,
        setup=setup,
    )
    try:
        return stress(request, lambda *_: None)
    except (JudgeError, *JUDGE_FAILURES) as error:
        return _why(error)


def _why(error: JudgeError | JudgeFailure | OSError) -> str:
    """The one line a page and the terminal show for a search that could not run."""
    return str(error) if isinstance(error, JudgeError) else reason(error)
