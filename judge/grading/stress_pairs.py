"""`judge grade --stress`: for every WA pair, the smallest failing input `judge stress` finds, for the pair's page.

Run in the grading process after the batch, one pair at a time (each is a search, not a test run), with a fixed
seed so a rerun shows the same input. A problem without strategy.py or generator.py, or a search the judge fails
at, leaves a one-line reason on the page instead; it never fails the grading.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path

from judge.batch.tasks import Pair
from judge.class_folder import ClassFolder
from judge.errors import JudgeError
from judge.grading.store import StoredResult
from judge.judging.failures import JUDGE_FAILURES, reason
from judge.options import RunOptions
from judge.problems.model import Problem
from judge.stress import StressReport, StressRequest, stress
from judge.verdicts import Verdict

STRESS_SEED = 0
MAX_EXAMPLES = 200


Told = Callable[[Pair, "StressReport | str"], None]
"""Told each pair's finding as soon as its search ends (the terminal's summary line)."""


def minimal_inputs(
    problems: Mapping[str, Problem],
    class_folder: ClassFolder,
    results: Mapping[Pair, StoredResult],
    budget_seconds: float,
    submissions_dir: Path,
    options: RunOptions,
    told: Told = lambda *_: None,
) -> dict[Pair, StressReport | str]:
    """A stress report (or why there is none) for every pair whose verdict is WA."""
    found: dict[Pair, StressReport | str] = {}
    for submission in class_folder.submissions:
        pair = (submission.student, submission.problem_id)
        if pair not in results or results[pair].verdict is not Verdict.WA:
            continue
        request = StressRequest(
            problem=problems[submission.problem_id],
            source=submission.path,
            reference=None,
            submissions_dir=submissions_dir,
            budget_seconds=budget_seconds,
            max_examples=MAX_EXAMPLES,
            seed=STRESS_SEED,
            options=options,
        )
        try:
            found[pair] = stress(request, lambda *_: None)
        except (JudgeError, *JUDGE_FAILURES) as error:
            found[pair] = str(error) if isinstance(error, JudgeError) else reason(error)
        told(pair, found[pair])
    return found
