"""Judging one submission on one problem: the entry point every command but stress and answers uses
(`judge_submission`) and the test loop; theirs (`open_judging`, `reference_runs`) are in open_judging.py. The setup
they share is setup.py's; each test case, with its JE boundary, is case.py's.

A submission failing is a verdict, never an exception. `JudgeError` is raised only for bad input from a person
(unknown language, missing toolchain, required sandbox unavailable). A failure of the judge around one test case
(failures.py) is that case's JE; one before any test runs (scratch folder, compiling, starting the checker) is raised
as a single `JudgeFailure`, which each command answers in its own way.
"""

from __future__ import annotations

from pathlib import Path

import msgspec.structs

from judge.judging.case import judge_case
from judge.judging.failures import JUDGE_FAILURES, as_failure
from judge.judging.hints import hints_for
from judge.judging.results import CaseListener, CaseResult, SubmissionHeader, SubmissionResult, overall_verdict
from judge.judging.run_ahead import run_ahead
from judge.judging.setup import JudgingSetup, set_up, tests_started
from judge.languages.sources import SourceFiles
from judge.options import RunOptions
from judge.problems.model import Problem
from judge.verdicts import Verdict


def judge_submission(
    problem: Problem, source: Path | SourceFiles, options: RunOptions, listener: CaseListener | None = None
) -> SubmissionResult:
    """Judge `source` (a path, or the files a batch task carries) on every test of `problem` (or up to the first
    failure with `fail_fast`); `listener` hears of the header before compiling and of each test as it finishes, so
    a view need not wait for the last one."""
    listener = listener or _Silent()
    try:
        with set_up(problem, source, options) as (setup, header):
            result = _judge_tests(setup, header, options, listener)
    except JUDGE_FAILURES as error:
        raise as_failure(error) from None
    return msgspec.structs.replace(result, hints=hints_for(result, setup.program.toolchain.language))


class _Silent:
    """The listener of callers that only want the finished result."""

    def started(self, header: SubmissionHeader) -> None:
        pass

    def compiled(self, warnings: str) -> None:
        pass

    def judged(self, case: CaseResult) -> None:
        pass


def _judge_tests(
    setup: JudgingSetup, header: SubmissionHeader, options: RunOptions, listener: CaseListener
) -> SubmissionResult:
    """Compile, then every test in order; with `fail_fast`, up to the first that is not AC, the later ones named in
    the result's `not_run` (not for a scored problem, where a failure does not decide the score: there only a group
    that breaks skips its later tests)."""
    listener.started(header)
    scoring = setup.problem.scoring
    with tests_started(setup) as started:  # the launcher starts while the program compiles
        compiled = setup.program.compile(setup.containment)
        if not compiled.ok:
            return _scored(setup, header.result(Verdict.CE, compile_message=compiled.message))
        listener.compiled(compiled.message)
        cases: list[CaseResult] = []
        not_run: list[str] = []
        tests = setup.problem.tests
        with run_ahead(started, tests) as ahead:
            for number, test in enumerate(tests, start=1):
                if scoring is not None and test.name in scoring.skipped_by_break(
                    {case.name: case.verdict for case in cases}
                ):
                    continue
                cases.append(judge_case(started, test, ahead))
                listener.judged(cases[-1])
                if options.fail_fast and scoring is None and cases[-1].verdict is not Verdict.AC:
                    not_run = [later.name for later in tests[number:]]
                    break
    return _scored(setup, header.result(overall_verdict(cases), cases, compiled.message, not_run))


def _scored(setup: JudgingSetup, result: SubmissionResult) -> SubmissionResult:
    """A scored problem's result graded by its groups (judge/problems/scoring.py), a CE scoring 0; others unchanged."""
    scoring = setup.problem.scoring
    if scoring is None:
        return result
    most = round(scoring.max_score(), 6)
    if result.verdict is Verdict.CE:
        return msgspec.structs.replace(result, score=0.0, max_score=most)
    verdict, score = scoring.grade(
        {case.name: case.verdict for case in result.cases},
        {case.name: case.score for case in result.cases if case.score is not None},
    )
    return msgspec.structs.replace(result, verdict=verdict, score=round(score, 6), max_score=most)
