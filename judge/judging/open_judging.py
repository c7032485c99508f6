"""A submission compiled once, with its checker open, then run on any inputs: `open_judging` (judge stress's
trials: generated inputs judged against the submission and a reference) and `reference_runs` (judge answers: a
reference solution's outputs). Apart from submission.py, whose `judge_submission` every other command uses, so
that `judge run` does not create these records (issue 45).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from msgspec import Struct

from judge.errors import SpecError, SubmissionError
from judge.judging.case import judge_case, run_test
from judge.judging.failures import JUDGE_FAILURES, as_failure
from judge.judging.results import CaseResult, SubmissionHeader, SubmissionResult
from judge.judging.setup import JudgingSetup, set_up, tests_started
from judge.options import RunOptions
from judge.problems.model import Problem, TestCase
from judge.programs.program import Compiled
from judge.programs.runs import ProblemPrograms
from judge.runner.classify import Classification
from judge.verdicts import Verdict


class ReferenceRun(Struct, frozen=True):
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


class Judging(Struct, frozen=True):
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
