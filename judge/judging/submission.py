"""Judging one submission on one problem: the entry points (`judge_submission`, `open_judging`, `reference_runs`)
and the test loop. The setup they share is setup.py's; each test case, with its JE boundary, is case.py's.

A submission failing is a verdict, never an exception. `JudgeError` is raised only for bad input from a person
(unknown language, missing toolchain, required sandbox unavailable). A failure of the judge around one test case
(failures.py) is that case's JE; one before any test runs (scratch folder, compiling, starting the checker) is raised
as a single `JudgeFailure`, which each command answers in its own way.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from judge.errors import SpecError, SubmissionError
from judge.judging.case import judge_case, run_test
from judge.judging.failures import JUDGE_FAILURES, as_failure
from judge.judging.hints import hints_for
from judge.judging.results import CaseListener, CaseResult, SubmissionHeader, SubmissionResult, overall_verdict
from judge.judging.setup import JudgingSetup, set_up, tests_started
from judge.languages.sources import SourceFiles
from judge.options import RunOptions
from judge.problems.model import Problem, TestCase
from judge.programs.program import Compiled
from judge.programs.runs import ProblemPrograms
from judge.runner.classify import Classification
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
    return dataclasses.replace(result, hints=hints_for(result, setup.program.toolchain.language))


@dataclass(frozen=True)
class ReferenceRun:
    """One test's run of a reference solution: how it ended (None: cleanly) and what it printed."""

    test: TestCase
    failure: Classification | None
    output: bytes


def reference_runs(problem: Problem, source: Path, options: RunOptions) -> Iterator[ReferenceRun]:
    """Run `source` on every input of `problem` exactly as a submission runs (same limits, sandbox and engine),
    without checking: the outputs become the answers (`judge answers`). A compile error is a SubmissionError."""
    _require_standalone(problem, "judge answers")
    with open_judging(problem, source, options) as judging:
        if not judging.compiled.ok:
            message = " ".join(judging.compiled.message.split())[:300]
            raise SubmissionError(f"{source}: does not compile: {message}")
        for test in problem.tests:
            failure, output = run_test(judging.setup, test)[1:]
            yield ReferenceRun(test, failure, output.read_bytes() if failure is None else b"")


@dataclass(frozen=True)
class Judging:
    """A submission compiled once, with its checker open: judge any number of test cases against it.

    `judge run` feeds its problem's tests through `judge_submission`; `judge stress` feeds it generated inputs,
    so both get the same limits, sandbox, classification and checker.
    """

    setup: JudgingSetup
    header: SubmissionHeader
    compiled: Compiled

    @property
    def programs(self) -> ProblemPrograms:
        """How the problem's own programs run for this submission (the same sandbox and containment)."""
        return self.setup.programs

    def case(self, test: TestCase) -> CaseResult:
        """One test judged, with the boundary: a failure of the judge around it is this case's JE."""
        return judge_case(self.setup, test)

    def case_and_output(self, test: TestCase) -> tuple[CaseResult, bytes]:
        """`case`, with what the program printed (empty when a limit or the exit status decided the verdict)."""
        case = judge_case(self.setup, test)
        printed = self.setup.program.scratch / "run.out"
        checked = case.verdict in (Verdict.AC, Verdict.WA, Verdict.PE)
        return case, printed.read_bytes() if checked and printed.exists() else b""

    def output(self, test_input: Path) -> tuple[CaseResult, bytes]:
        """Run on `test_input` without checking (for a reference answer): AC when it ended within the limits,
        else the verdict a limit or its exit status earned, and what it printed."""
        _require_standalone(self.setup.problem, "a reference answer")
        measured, failure, printed = run_test(self.setup, TestCase("run", test_input, test_input))
        if failure is not None:
            return CaseResult(**measured, verdict=failure.verdict, message=failure.message), b""
        return CaseResult(**measured, verdict=Verdict.AC), printed.read_bytes()

    def result(self, verdict: Verdict, cases: tuple[CaseResult, ...] = ()) -> SubmissionResult:
        return self.header.result(verdict, cases, self.compiled.message)


@contextmanager
def open_judging(problem: Problem, source: Path, options: RunOptions) -> Iterator[Judging]:
    """Read and compile `source` once and open the problem's checker, for the duration of the block. Bad input
    is a `JudgeError`; a failure of the judge before any test is one `JudgeFailure`."""
    try:
        with set_up(problem, source, options) as (setup, header):
            compiled = setup.program.compile(setup.containment)
            if not compiled.ok:
                yield Judging(setup, header, compiled)
                return
            with tests_started(setup) as started:
                yield Judging(started, header, compiled)
    except JUDGE_FAILURES as error:
        raise as_failure(error) from None


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
        for number, test in enumerate(tests, start=1):
            if scoring is not None and test.name in scoring.skipped_by_break(
                {case.name: case.verdict for case in cases}
            ):
                continue
            cases.append(judge_case(started, test))
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
        return dataclasses.replace(result, score=0.0, max_score=most)
    verdict, score = scoring.grade(
        {case.name: case.verdict for case in result.cases},
        {case.name: case.score for case in result.cases if case.score is not None},
    )
    return dataclasses.replace(result, verdict=verdict, score=round(score, 6), max_score=most)


def _require_standalone(problem: Problem, what: str) -> None:
    """An interactive problem's program prints only to its validator, and a multi-pass problem's prints once per
    pass: neither has one output to keep as an answer."""
    if problem.answers_are_outputs:
        return
    kind = (
        "an interactive problem's program talks only with its validator"
        if problem.interactive
        else f"a multi-pass problem's program runs up to {problem.passes} times per test"
    )
    raise SpecError(f"{problem.root}: {what} needs the program's output, and {kind}; give the answers by hand")
