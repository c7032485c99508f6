"""Reference submissions judged on the batch engine (the same executors as `judge grade`: a spawn pool with crash
isolation, or Dask), each compared with the verdict its folder expects, and a problem package's time limit derived
from its accepted ones as problemtools does."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import msgspec.structs

from judge.batch.engine import run_batch
from judge.batch.executors import ExecutorChoice, Finished
from judge.batch.packing import ProblemPack
from judge.batch.status_bar import StatusBar
from judge.batch.tasks import SubmissionOutcome, SubmissionTask
from judge.languages.sources import SourceFiles
from judge.options import RunOptions
from judge.problems.expectations import Expectation, Reference
from judge.problems.model import Problem
from judge.problems.packages.timing import with_time_limit
from judge.verdicts import Verdict
from judge.verify.report import DerivedLimit, SubmissionCheck, TestDataCheck, VerifyReport


def judge_references(
    pairs: list[tuple[Problem, Reference]],
    options: RunOptions,
    executor: ExecutorChoice,
    progress: Callable[[int], StatusBar],
) -> dict[tuple[str, Path], SubmissionCheck]:
    """Judge each reference submission on its problem in one batch; on a problem package, a submission expected to
    be too slow is judged with the time limit × the package's `time_limit_to_tle`: it must fail with that margin."""
    tasks, expected = [], {}
    packs: dict[tuple[str, bool], ProblemPack] = {}
    for problem, ref in pairs:
        slow = ref.expectation.verdicts == {Verdict.TLE} and problem.time_rule is not None
        key = (problem.id, slow)
        if key not in packs:
            packs[key] = ProblemPack.of(_as_judged(problem, slow))
        limit = options.source_limit_bytes(problem.spec.source_limit)
        owner = f"{ref.name.parent.name}/{ref.name.name}"
        # Requirements on single tests need every test's verdict: no stopping at the first rejected one.
        judged = msgspec.structs.replace(options, fail_fast=False) if ref.expectation.tests else options
        source = SourceFiles.read(ref.path, limit, judged.language)
        task = SubmissionTask(owner, str(ref.name), source, packs[key], judged)
        tasks.append(task)
        expected[task.pair] = (problem.id, ref.name, ref.expectation)
    checks: dict[tuple[str, Path], SubmissionCheck] = {}
    if not tasks:
        return checks

    def finished(done: Finished) -> None:
        problem_id, path, expectation = expected[done.task.pair]
        checks[(problem_id, path)] = _check(problem_id, path, expectation, done.outcome)

    run_batch(tasks, executor, progress(len(tasks)), finished)
    return checks


def with_derived_limit(
    problem: Problem, measured: dict[tuple[str, Path], SubmissionCheck], report: VerifyReport
) -> Problem:
    """`problem` with its time limit derived from its accepted submissions' slowest test, as problemtools does, and
    the derivation added to `report`; without an accepted submission that passed, the data check says so and the
    measuring ceiling stays."""
    if problem.time_rule is None or not problem.time_limit_pending:
        return problem
    times = [
        (check.result.slowest_cpu_seconds, path)
        for (problem_id, path), check in measured.items()
        if problem_id == problem.id and check.result is not None and check.result.verdict is Verdict.AC
    ]
    if not times:
        report.data_checks.append(
            TestDataCheck(
                problem.id,
                "time limit",
                False,
                "no accepted submission passed, so no time limit can be derived; give limits.time_limit",
            )
        )
        return problem
    slowest, path = max(times)
    derived = DerivedLimit(problem.id, problem.time_rule.limit_for(slowest), slowest, path, problem.time_rule)
    report.derived_limits.append(derived)
    return with_time_limit(problem, derived.seconds)


def _as_judged(problem: Problem, slow: bool) -> Problem:
    """The problem as a reference submission is judged on it: a pending time limit at its measuring ceiling, and
    for a submission expected to be too slow (`slow`), the limit × the package's time_limit_to_tle."""
    if problem.time_limit_pending:
        problem = with_time_limit(problem, problem.spec.time_limit)
    if slow and problem.time_rule is not None:
        problem = with_time_limit(problem, round(problem.spec.time_limit * problem.time_rule.time_limit_to_tle, 3))
    return problem


def _check(problem_id: str, path: Path, expected: Expectation, outcome: SubmissionOutcome) -> SubmissionCheck:
    """A missing toolchain follows verify's policy (judge/judging/failures.py: skipped), also when it is the one a
    package means (PyPy 3 for its Python; judging/setup.py says so): judged on another interpreter, its times would
    make a derived limit, or a TLE it must get, prove nothing. The judge failing before any test is that
    submission's JE, with its reason."""
    if outcome.missing_toolchain:
        return SubmissionCheck(problem_id, path, expected, skipped=outcome.error)
    if outcome.result is None:
        return SubmissionCheck(problem_id, path, expected, failed=outcome.error)
    return SubmissionCheck(problem_id, path, expected, result=outcome.result)
