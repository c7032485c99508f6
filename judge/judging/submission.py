"""Judging one submission on one problem: compile once, then run, classify and check every test in order.

A submission failing is a verdict, never an exception. `JudgeError` is raised only for bad input from a person
(unknown language, missing toolchain, required sandbox unavailable). A failure of the judge around one test case
(failures.py) is that case's JE; one before any test runs (scratch folder, compiling, starting the checker) is raised
as a single `JudgeFailure`, which each command answers in its own way.
"""

from __future__ import annotations

import dataclasses
import difflib
import os
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from judge.checkers import Checker, open_checker
from judge.checkers.program import ProgramChecker
from judge.errors import JudgeFailure, SpecError, SubmissionError, ToolchainMissing
from judge.intake import read_source
from judge.judging.failures import JUDGE_FAILURES, as_failure, reason
from judge.judging.hints import hints_for
from judge.judging.limit_policy import effective_limits, limits_note
from judge.judging.results import CaseListener, CaseResult, SubmissionHeader, SubmissionResult, overall_verdict
from judge.languages.catalog import LANGUAGES
from judge.languages.detection import detect_language
from judge.languages.toolchains import resolve_toolchain
from judge.options import RunOptions
from judge.problem_code import ProblemCodeBox
from judge.problems.model import SPEC_FILE, Problem, TestCase
from judge.program import Compiled, Program
from judge.runner import execute
from judge.runner.classify import Classification, classify
from judge.runner.containment.choice import choose_containment, describe
from judge.runner.containment.protocol import Containment
from judge.runner.execute import RunSpec, run_limits
from judge.runner.limits import Limits
from judge.runner.sandbox import Sandbox, choose_sandbox, scratch_folder
from judge.runner.start import Spawner, Starter
from judge.runner.starter_choice import BoxPython, test_starter
from judge.suggest import nearby_path
from judge.verdicts import Verdict

DIFF_LINES = 12
HIDDEN_DIFF_BYTES = 64 * 1024
LAUNCHER_LANGUAGE = "python3"  # the language whose toolchain runs a warm box's launcher without a system Python


@dataclass(frozen=True)
class _Setup:
    """Everything fixed for the runs of one submission."""

    problem: Problem
    program: Program
    limits: Limits
    checker: Checker
    containment: Containment
    starter: Starter


def judge_submission(problem: Problem, source: Path, options: RunOptions,
                     listener: CaseListener | None = None) -> SubmissionResult:
    """Judge `source` on every test of `problem` (or up to the first failure with `fail_fast`); `listener` hears
    of the header before compiling and of each test as it finishes, so a view need not wait for the last one."""
    listener = listener or _Silent()
    try:
        with _session(problem, source, options) as (setup, header):
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
            failure, output = _execute(judging.setup, test)[1:]
            yield ReferenceRun(test, failure, output.read_bytes() if failure is None else b"")


@dataclass(frozen=True)
class Judging:
    """A submission compiled once, with its checker open: judge any number of test cases against it.

    `judge run` feeds its problem's tests through `judge_submission`; `judge stress` feeds it generated inputs,
    so both get the same limits, sandbox, classification and checker.
    """

    setup: _Setup
    header: SubmissionHeader
    compiled: Compiled

    @property
    def sandbox(self) -> Sandbox:
        return self.setup.program.sandbox

    def case(self, test: TestCase) -> CaseResult:
        """One test judged, with the boundary: a failure of the judge around it is this case's JE."""
        return _judge_case(self.setup, test)

    def case_and_output(self, test: TestCase) -> tuple[CaseResult, bytes]:
        """`case`, with what the program printed (empty when a limit or the exit status decided the verdict)."""
        case = _judge_case(self.setup, test)
        printed = self.setup.program.scratch / "run.out"
        checked = case.verdict in (Verdict.AC, Verdict.WA, Verdict.PE)
        return case, printed.read_bytes() if checked and printed.exists() else b""

    def output(self, test_input: Path) -> tuple[CaseResult, bytes]:
        """Run on `test_input` without checking (for a reference answer): AC when it ended within the limits,
        else the verdict a limit or its exit status earned, and what it printed."""
        _require_standalone(self.setup.problem, "a reference answer")
        measured, failure, printed = _execute(self.setup, TestCase("run", test_input, test_input))
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
        with _session(problem, source, options) as (setup, header):
            compiled = setup.program.compile(setup.containment)
            if not compiled.ok:
                yield Judging(setup, header, compiled)
                return
            with _tests_started(setup) as started:
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


@contextmanager
def _session(problem: Problem, source: Path, options: RunOptions) -> Iterator[tuple[_Setup, SubmissionHeader]]:
    """Everything a submission's runs share, ready in a scratch folder removed afterwards."""
    if problem.time_limit_pending:
        raise SpecError(f"{problem.root / SPEC_FILE}: limits.time_limit: the package gives no time limit; "
                        f"`judge verify {problem.root}` derives one from its accepted submissions: write it there "
                        f"(or in .timelimit)")
    if not os.path.lexists(source):
        raise SubmissionError(f"{source}: no such file; give the path of a submission's source file"
                              f"{nearby_path(source)}")
    text = read_source(source, options.source_limit_bytes(problem.spec.source_limit))  # never a link, FIFO, ...
    language = detect_language(source, options.language)
    toolchain = resolve_toolchain(language)
    sandbox = choose_sandbox(options.sandbox)
    containment = choose_containment(options.containment)
    limits = effective_limits(problem.spec, language)
    with scratch_folder("judge-") as scratch:
        program = Program.write(toolchain, sandbox, scratch, scratch / "program", text, source.name,
                                boj_main=problem.boj_java_main)
        with open_checker(problem, ProblemCodeBox.of(sandbox), scratch) as checker:
            setup = _Setup(problem, program, limits, checker, containment, Spawner(sandbox.syscall_filter))
            header = SubmissionHeader(
                problem_id=problem.id, submission=str(source), language=language.display, limits=limits,
                isolation=sandbox.name, memory_enforcement=describe(containment),
                limits_note=limits_note(problem.spec, language), tests=tuple(test.name for test in problem.tests),
            )
            yield setup, header


def _judge_tests(setup: _Setup, header: SubmissionHeader, options: RunOptions,
                 listener: CaseListener) -> SubmissionResult:
    """Compile, then every test in order; with `fail_fast`, up to the first that is not AC (not for a scored
    problem, where a failure does not decide the score: there only a group that breaks skips its later tests)."""
    listener.started(header)
    scoring = setup.problem.scoring
    with _tests_started(setup) as started:  # the launcher starts while the program compiles
        compiled = setup.program.compile(setup.containment)
        if not compiled.ok:
            return _scored(setup, header.result(Verdict.CE, compile_message=compiled.message))
        listener.compiled(compiled.message)
        cases: list[CaseResult] = []
        for test in setup.problem.tests:
            if scoring is not None and test.name in scoring.skipped_by_break({case.name: case.verdict
                                                                               for case in cases}):
                continue
            cases.append(_judge_case(started, test))
            listener.judged(cases[-1])
            if options.fail_fast and scoring is None and cases[-1].verdict is not Verdict.AC:
                break
    return _scored(setup, header.result(overall_verdict(cases), cases, compiled.message))


def _scored(setup: _Setup, result: SubmissionResult) -> SubmissionResult:
    """A scored problem's result graded by its groups (judge/problems/scoring.py), a CE scoring 0; others unchanged."""
    scoring = setup.problem.scoring
    if scoring is None:
        return result
    most = round(scoring.max_score(), 6)
    if result.verdict is Verdict.CE:
        return dataclasses.replace(result, score=0.0, max_score=most)
    verdict, score = scoring.grade({case.name: case.verdict for case in result.cases},
                                   {case.name: case.score for case in result.cases if case.score is not None})
    return dataclasses.replace(result, verdict=verdict, score=round(score, 6), max_score=most)


def _require_standalone(problem: Problem, what: str) -> None:
    """An interactive problem's program prints only to its validator: there is no output to keep as an answer."""
    if problem.interactive:
        raise SpecError(f"{problem.root}: {what} needs the program's output, and an interactive problem's program "
                        f"talks only with its validator; give the answers by hand")


@contextmanager
def _tests_started(setup: _Setup) -> Iterator[_Setup]:
    """`setup` with the starter of the submission's tests (a launcher, or a warm box) and their containment (one
    control group for them all, where it can be), stopped after the block.
    An interactive problem keeps a fork of the judge per run: its submission and validator run at once, each in
    a box of its own, joined by the judge's pipes."""
    if setup.problem.interactive:
        yield setup
        return
    program, limits = setup.program, setup.limits
    guards = setup.containment.guards(limits.max_processes)
    rlimits = run_limits(limits, guards, program.toolchain.language.limit_address_space)
    with setup.containment.for_runs(limits.memory_mib, limits.max_processes) as containment, \
            test_starter(program.sandbox, containment, program.mounts, rlimits, _launcher_python) as starter:
        yield dataclasses.replace(setup, starter=starter, containment=containment)


def _launcher_python() -> BoxPython | None:
    """The Python 3 toolchain, to run a warm box's launcher on a machine without a system Python; None without
    one (each test then gets a box of its own)."""
    try:
        python = resolve_toolchain(LANGUAGES[LAUNCHER_LANGUAGE])
    except ToolchainMissing:
        return None
    return BoxPython(python.paths["python"], python.view)


def _judge_case(setup: _Setup, test: TestCase) -> CaseResult:
    """The boundary: whatever fails around this case on the judge's side is this case's JE, with one line."""
    try:
        return _run_case(setup, test)
    except JUDGE_FAILURES as error:
        return CaseResult(name=test.name, verdict=Verdict.JE, cpu_seconds=0.0, wall_seconds=0.0, peak_mib=0.0,
                          message=reason(error), is_sample=test.is_sample)


def _run_case(setup: _Setup, test: TestCase) -> CaseResult:
    if setup.problem.interactive:
        return _interactive_case(setup, test)
    measured, failure, output_path = _execute(setup, test)
    if failure is not None:
        return CaseResult(**measured, verdict=failure.verdict, message=failure.message)
    output = output_path.read_bytes()
    answer = test.answer_path.read_bytes()
    checked = setup.checker(input=test.input_path.read_bytes(), output=output, answer=answer)
    diff = _diff(answer, output) if checked.verdict in (Verdict.WA, Verdict.PE) and _diffable(test, answer, output) else ""
    return CaseResult(**measured, verdict=checked.verdict, message=checked.message, diff=diff, score=checked.score)


def _execute(setup: _Setup, test: TestCase) -> tuple[dict[str, Any], Classification | None, Path]:
    """Run the program on one test: what was measured, the verdict it earned before any checker (None when it
    exited cleanly), and the file holding its stdout."""
    language = setup.program.toolchain.language
    spec = _run_spec(setup, test)
    stats = execute.run(spec, setup.limits, setup.containment, setup.starter)
    measured = dict(
        name=test.name, cpu_seconds=round(stats.cpu_seconds, 3), wall_seconds=round(stats.wall_seconds, 3),
        peak_mib=round(stats.peak_mib, 1), is_sample=test.is_sample,
    )
    return measured, classify(stats, setup.limits, language.memory_errors), spec.stdout_path


def _diffable(test: TestCase, answer: bytes, output: bytes) -> bool:
    """Samples always get a diff; hidden tests when both texts are small (difflib is slow on huge outputs). Which
    diffs a person sees is the feedback policy's choice (judge/judging/feedback.py), not the judging's."""
    return test.is_sample or max(len(answer), len(output)) <= HIDDEN_DIFF_BYTES


def _run_spec(setup: _Setup, test: TestCase) -> RunSpec:
    """How the program starts on one test: its run command, confined, reading the test's input."""
    in_box = setup.starter.in_box
    argv = setup.program.command(setup.program.toolchain.language.run, setup.limits.memory_mib, in_box=in_box)
    return setup.program.run_spec(argv, test.input_path, "run", in_box=in_box)


def _interactive_case(setup: _Setup, test: TestCase) -> CaseResult:
    """One test of an interactive problem: the submission and the validator run together (interactive.py)."""
    if not isinstance(setup.checker, ProgramChecker):
        raise JudgeFailure(f"{setup.problem.root}: an interactive problem needs an output validator program")
    from judge.judging.interactive import interact  # noqa: PLC0415 -- concurrent.futures, logging only when interactive

    language = setup.program.toolchain.language
    done = interact(_run_spec(setup, test), setup.limits, language.memory_errors, setup.checker, test)
    stats = done.submission
    return CaseResult(name=test.name, verdict=done.verdict, cpu_seconds=round(stats.cpu_seconds, 3),
                      wall_seconds=round(stats.wall_seconds, 3), peak_mib=round(stats.peak_mib, 1),
                      message=done.message, is_sample=test.is_sample, score=done.score)


def _diff(answer: bytes, output: bytes) -> str:
    """A short unified diff of expected vs got, for a failed test."""
    expected = answer.decode("utf-8", errors="replace").splitlines()
    got = output.decode("utf-8", errors="replace").splitlines()
    lines = list(difflib.unified_diff(expected, got, "expected", "got", lineterm="", n=1))
    return "\n".join(line[:120] for line in lines[:DIFF_LINES])
