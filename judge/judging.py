"""Judging one submission on one problem: compile once, then run, classify and check every test in order.

A submission failing is a verdict, never an exception. `JudgeError` is raised only for bad input from a person
(unknown language, missing toolchain, required sandbox unavailable). A failure of the judge around one test case
(judge/failures.py) is that case's JE; one before any test runs (scratch folder, compiling, starting the checker)
is raised as a single `JudgeFailure`, which each command answers in its own way.
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

from judge import execute
from judge.checkers import Checker, open_checker
from judge.classify import Classification, classify
from judge.containment import Containment, choose_containment, describe
from judge.errors import SubmissionError
from judge.execute import Limits, RunSpec, run_limits
from judge.failures import JUDGE_FAILURES, as_failure, reason
from judge.hints import hints_for
from judge.intake import read_source
from judge.launcher import Spawner, Starter
from judge.language_table import Allowance, Language
from judge.languages import Toolchain, detect_language, resolve_toolchain
from judge.options import RunOptions
from judge.problem import Problem, ProblemSpec, TestCase
from judge.problem_code import ProblemCodeBox
from judge.results import CaseListener, CaseResult, SubmissionHeader, SubmissionResult, overall_verdict
from judge.sandbox import BOX, SANDBOX_ENV, Mounts, Sandbox, choose_sandbox, program_env, scratch_folder
from judge.starters import test_starter
from judge.suggest import nearby_path
from judge.verdicts import Verdict

COMPILE_LIMITS = Limits(time_seconds=30, wall_seconds=60, memory_mib=2048, output_mib=16, max_processes=256)
DIFF_LINES = 12
HIDDEN_DIFF_BYTES = 64 * 1024
COMPILE_MESSAGE_CHARS = 4000
UTF8_BOM = b"\xef\xbb\xbf"


@dataclass(frozen=True)
class _Setup:
    """Everything fixed for the runs of one submission."""

    problem: Problem
    toolchain: Toolchain
    sandbox: Sandbox
    mounts: Mounts
    limits: Limits
    checker: Checker
    scratch: Path
    source_label: str
    containment: Containment
    starter: Starter

    def command(self, template: tuple[str, ...], memory_mib: int, mounts: Mounts) -> list[str]:
        """A language's compile or run command, with paths as the sandbox shows them, wrapped by the sandbox
        (bare when the starter already runs inside a box)."""
        language = self.toolchain.language
        source = self.sandbox.program_path(mounts.program_dir / language.source_name, mounts)
        program = self.sandbox.program_path(mounts.program_dir, mounts)
        argv = self.toolchain.command(template, program=program, source=source, source_label=self.source_label,
                                      memory_mib=memory_mib)
        return argv if self.starter.in_box else self.sandbox.wrap(argv, mounts)

    def run_spec(self, argv: list[str], stdin: Path, name: str, mounts: Mounts) -> RunSpec:
        return RunSpec(
            argv=argv,
            cwd=BOX if self.starter.in_box else mounts.program_dir,
            stdin_path=stdin,
            stdout_path=self.scratch / f"{name}.out",
            stderr_path=self.scratch / f"{name}.err",
            env=dict(SANDBOX_ENV) if self.starter.in_box else program_env(mounts.program_dir),
            limit_address_space=self.toolchain.language.limit_address_space,
            signals_as_exit_codes=self.sandbox.signals_as_exit_codes,
            syscall_filter=self.sandbox.syscall_filter,
        )


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
    return dataclasses.replace(result, hints=hints_for(result, setup.toolchain.language))


@dataclass(frozen=True)
class ReferenceRun:
    """One test's run of a reference solution: how it ended (None: cleanly) and what it printed."""

    test: TestCase
    failure: Classification | None
    output: bytes


def reference_runs(problem: Problem, source: Path, options: RunOptions) -> Iterator[ReferenceRun]:
    """Run `source` on every input of `problem` exactly as a submission runs (same limits, sandbox and engine),
    without checking: the outputs become the answers (`judge answers`). A compile error is a SubmissionError."""
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
    compiled: _Compiled

    @property
    def sandbox(self) -> Sandbox:
        return self.setup.sandbox

    def case(self, test: TestCase) -> CaseResult:
        """One test judged, with the boundary: a failure of the judge around it is this case's JE."""
        return _judge_case(self.setup, test)

    def case_and_output(self, test: TestCase) -> tuple[CaseResult, bytes]:
        """`case`, with what the program printed (empty when a limit or the exit status decided the verdict)."""
        case = _judge_case(self.setup, test)
        printed = self.setup.scratch / "run.out"
        checked = case.verdict in (Verdict.AC, Verdict.WA, Verdict.PE)
        return case, printed.read_bytes() if checked and printed.exists() else b""

    def output(self, test_input: Path) -> tuple[CaseResult, bytes]:
        """Run on `test_input` without checking (for a reference answer): AC when it ended within the limits,
        else the verdict a limit or its exit status earned, and what it printed."""
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
            compiled = _compile(setup)
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
        program_dir = scratch / "program"
        program_dir.mkdir()
        (program_dir / language.source_name).write_bytes(_program_text(text))
        with open_checker(problem, ProblemCodeBox.of(sandbox), scratch) as checker:
            mounts = Mounts(program_dir=program_dir, toolchain=toolchain.view)
            setup = _Setup(problem, toolchain, sandbox, mounts, limits, checker, scratch, source.name, containment,
                           Spawner(sandbox.syscall_filter))
            header = SubmissionHeader(
                problem_id=problem.id, submission=str(source), language=language.display, limits=limits,
                isolation=sandbox.name, memory_enforcement=describe(containment),
                limits_note=limits_note(problem.spec, language), tests=tuple(test.name for test in problem.tests),
            )
            yield setup, header


def _judge_tests(setup: _Setup, header: SubmissionHeader, options: RunOptions,
                 listener: CaseListener) -> SubmissionResult:
    listener.started(header)
    compiled = _compile(setup)
    if not compiled.ok:
        return header.result(Verdict.CE, compile_message=compiled.message)
    listener.compiled(compiled.message)
    cases: list[CaseResult] = []
    with _tests_started(setup) as started:
        for test in setup.problem.tests:
            cases.append(_judge_case(started, test))
            listener.judged(cases[-1])
            if options.fail_fast and cases[-1].verdict is not Verdict.AC:
                break
    return header.result(overall_verdict(cases), cases, compiled.message)


@contextmanager
def _tests_started(setup: _Setup) -> Iterator[_Setup]:
    """`setup` with the starter of the submission's tests (a launcher, or a warm box), stopped after the block."""
    language = setup.toolchain.language
    guards = setup.containment.guards(setup.limits.max_processes)
    rlimits = run_limits(setup.limits, guards, language.limit_address_space)
    with test_starter(setup.sandbox, setup.containment, setup.mounts, rlimits) as starter:
        yield dataclasses.replace(setup, starter=starter)


def effective_limits(spec: ProblemSpec, language: Language) -> Limits:
    """The limits a submission in `language` gets on this problem (BOJ's allowance unless the problem disables it)."""
    time_allowance = language.time if spec.language_allowance else Allowance()
    memory_allowance = language.memory if spec.language_allowance else Allowance()
    time_seconds = round(time_allowance.apply(spec.time_limit), 3)
    return Limits(
        time_seconds=time_seconds,
        wall_seconds=round(2 * time_seconds + 1, 3),
        memory_mib=int(memory_allowance.apply(spec.memory_limit)),
        output_mib=spec.output_limit,
        max_processes=language.max_processes,
    )


def limits_note(spec: ProblemSpec, language: Language) -> str:
    """How the limits were derived, said once: `CPU 10 s × 3 + 2 s for Python 3, memory 256 MiB × 2 + 32 MiB`.
    Empty when the language gets the bare limits."""
    if not spec.language_allowance:
        return ""
    parts = [part for part in (_allowance_text("CPU", spec.time_limit, "s", language.time),
                               _allowance_text("memory", spec.memory_limit, "MiB", language.memory)) if part]
    return ", ".join([f"{parts[0]} for {language.display}", *parts[1:]]) if parts else ""


def _allowance_text(what: str, limit: float, unit: str, allowance: Allowance) -> str:
    if allowance == Allowance():
        return ""
    text = f"{what} {limit:g} {unit}"
    if allowance.factor != 1:
        text += f" × {allowance.factor:g}"
    if allowance.extra:
        text += f" + {allowance.extra:g} {unit}"
    return text


def _program_text(source: bytes) -> bytes:
    """The source as the compiler gets it: without a UTF-8 byte order mark, which editors on Windows add and
    which is no part of the program (javac rejects it; BOJ's editor never sends one)."""
    return source.removeprefix(UTF8_BOM)


@dataclass(frozen=True)
class _Compiled:
    """The outcome of the compile step: whether it succeeded, and the compiler's message (warnings on success)."""

    ok: bool
    message: str = ""


def _compile(setup: _Setup) -> _Compiled:
    """Compile once in a writable box. Warnings are kept for the student; they never make a CE."""
    language = setup.toolchain.language
    if language.compile is None:
        return _Compiled(ok=True)
    mounts = dataclasses.replace(setup.mounts, writable_program_dir=True)
    setup.sandbox.grant_write(mounts.program_dir)
    argv = setup.command(language.compile, COMPILE_LIMITS.memory_mib, mounts)
    empty = setup.scratch / "empty.in"
    empty.touch()
    spec = setup.run_spec(argv, empty, "compile", mounts)
    stats = execute.run(dataclasses.replace(spec, limit_address_space=False), COMPILE_LIMITS, setup.containment)
    failure = classify(stats, COMPILE_LIMITS)
    output = (spec.stdout_path.read_text(errors="replace") + spec.stderr_path.read_text(errors="replace")).strip()
    if failure is None:
        return _Compiled(ok=True, message=output[-COMPILE_MESSAGE_CHARS:])
    if failure.verdict is Verdict.RE:  # the compiler said no: its own message is the reason
        return _Compiled(ok=False, message=output[-COMPILE_MESSAGE_CHARS:])
    return _Compiled(ok=False, message=f"{failure.message}\n{output[-COMPILE_MESSAGE_CHARS:]}".strip())


def _judge_case(setup: _Setup, test: TestCase) -> CaseResult:
    """The boundary: whatever fails around this case on the judge's side is this case's JE, with one line."""
    try:
        return _run_case(setup, test)
    except JUDGE_FAILURES as error:
        return CaseResult(name=test.name, verdict=Verdict.JE, cpu_seconds=0.0, wall_seconds=0.0, peak_mib=0.0,
                          message=reason(error), is_sample=test.is_sample)


def _run_case(setup: _Setup, test: TestCase) -> CaseResult:
    measured, failure, output_path = _execute(setup, test)
    if failure is not None:
        return CaseResult(**measured, verdict=failure.verdict, message=failure.message)
    output = output_path.read_bytes()
    answer = test.answer_path.read_bytes()
    checked = setup.checker(input=test.input_path.read_bytes(), output=output, answer=answer)
    diff = _diff(answer, output) if checked.verdict in (Verdict.WA, Verdict.PE) and _diffable(test, answer, output) else ""
    return CaseResult(**measured, verdict=checked.verdict, message=checked.message, diff=diff)


def _execute(setup: _Setup, test: TestCase) -> tuple[dict[str, Any], Classification | None, Path]:
    """Run the program on one test: what was measured, the verdict it earned before any checker (None when it
    exited cleanly), and the file holding its stdout."""
    language = setup.toolchain.language
    argv = setup.command(language.run, setup.limits.memory_mib, setup.mounts)
    spec = setup.run_spec(argv, test.input_path, "run", setup.mounts)
    stats = execute.run(spec, setup.limits, setup.containment, setup.starter)
    measured = dict(
        name=test.name, cpu_seconds=round(stats.cpu_seconds, 3), wall_seconds=round(stats.wall_seconds, 3),
        peak_mib=round(stats.peak_mib, 1), is_sample=test.is_sample,
    )
    return measured, classify(stats, setup.limits, language.memory_errors), spec.stdout_path


def _diffable(test: TestCase, answer: bytes, output: bytes) -> bool:
    """Samples always get a diff; hidden tests when both texts are small (difflib is slow on huge outputs). Which
    diffs a person sees is the feedback policy's choice (judge/feedback.py), not the judging's."""
    return test.is_sample or max(len(answer), len(output)) <= HIDDEN_DIFF_BYTES


def _diff(answer: bytes, output: bytes) -> str:
    """A short unified diff of expected vs got, for a failed test."""
    expected = answer.decode("utf-8", errors="replace").splitlines()
    got = output.decode("utf-8", errors="replace").splitlines()
    lines = list(difflib.unified_diff(expected, got, "expected", "got", lineterm="", n=1))
    return "\n".join(line[:120] for line in lines[:DIFF_LINES])
