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
from dataclasses import dataclass
from pathlib import Path

from judge import execute
from judge.checkers import Checker, open_checker
from judge.classify import classify
from judge.containment import Containment, choose_containment, describe
from judge.errors import SubmissionError
from judge.execute import Limits, RunSpec, run_limits
from judge.failures import JUDGE_FAILURES, as_failure, reason
from judge.intake import read_source
from judge.launcher import Spawner, Starter
from judge.language_table import Allowance, Language
from judge.languages import Toolchain, detect_language, resolve_toolchain
from judge.options import RunOptions
from judge.problem import Problem, ProblemSpec, TestCase
from judge.problem_code import ProblemCodeBox
from judge.results import CaseResult, SubmissionResult
from judge.sandbox import BOX, SANDBOX_ENV, Mounts, Sandbox, choose_sandbox, program_env, scratch_folder
from judge.starters import test_starter
from judge.verdicts import Verdict

COMPILE_LIMITS = Limits(time_seconds=30, wall_seconds=60, memory_mib=2048, output_mib=16, max_processes=256)
DIFF_LINES = 12
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


def judge_submission(problem: Problem, source: Path, options: RunOptions) -> SubmissionResult:
    """Judge `source` on every test of `problem` (or up to the first failure with `fail_fast`)."""
    if not os.path.lexists(source):
        raise SubmissionError(f"{source}: no such file; give the path of a submission's source file")
    text = read_source(source, options.source_limit_bytes(problem.spec.source_limit))  # never a link, FIFO, ...
    language = detect_language(source, options.language)
    toolchain = resolve_toolchain(language)
    sandbox = choose_sandbox(options.sandbox)
    containment = choose_containment(options.containment)
    limits = effective_limits(problem.spec, language)
    try:
        return _judge_in_scratch(problem, source, options, text, toolchain, sandbox, containment, limits)
    except JUDGE_FAILURES as error:
        raise as_failure(error) from None


def _judge_in_scratch(problem: Problem, source: Path, options: RunOptions, text: bytes, toolchain: Toolchain,
                      sandbox: Sandbox, containment: Containment, limits: Limits) -> SubmissionResult:
    language = toolchain.language
    with scratch_folder("judge-") as scratch:
        program_dir = scratch / "program"
        program_dir.mkdir()
        (program_dir / language.source_name).write_bytes(_program_text(text))
        with open_checker(problem, ProblemCodeBox.of(sandbox), scratch) as checker:
            mounts = Mounts(program_dir=program_dir, toolchain=toolchain.view)
            setup = _Setup(problem, toolchain, sandbox, mounts, limits, checker, scratch, source.name, containment,
                           Spawner(sandbox.syscall_filter))
            base = dict(
                problem_id=problem.id, submission=str(source), language=language.display, limits=limits,
                isolation=sandbox.name, memory_enforcement=describe(containment),
            )
            compiled = _compile(setup)
            if not compiled.ok:
                return SubmissionResult(**base, verdict=Verdict.CE, compile_message=compiled.message)
            cases = []
            rlimits = run_limits(limits, containment.guards(limits.max_processes), language.limit_address_space)
            with test_starter(sandbox, containment, mounts, rlimits) as starter:
                setup = dataclasses.replace(setup, starter=starter)
                for test in problem.tests:
                    cases.append(_judge_case(setup, test))
                    if options.fail_fast and cases[-1].verdict is not Verdict.AC:
                        break
    verdict = next((case.verdict for case in cases if case.verdict is not Verdict.AC), Verdict.AC)
    return SubmissionResult(**base, verdict=verdict, cases=tuple(cases), compile_message=compiled.message)


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
    language = setup.toolchain.language
    argv = setup.command(language.run, setup.limits.memory_mib, setup.mounts)
    spec = setup.run_spec(argv, test.input_path, "run", setup.mounts)
    stats = execute.run(spec, setup.limits, setup.containment, setup.starter)
    measured = dict(
        name=test.name, cpu_seconds=round(stats.cpu_seconds, 3), wall_seconds=round(stats.wall_seconds, 3),
        peak_mib=round(stats.peak_mib, 1), is_sample=test.is_sample,
    )
    failure = classify(stats, setup.limits, language.memory_errors)
    if failure is not None:
        return CaseResult(**measured, verdict=failure.verdict, message=failure.message)
    output = spec.stdout_path.read_bytes()
    answer = test.answer_path.read_bytes()
    checked = setup.checker(input=test.input_path.read_bytes(), output=output, answer=answer)
    diff = _diff(answer, output) if test.is_sample and checked.verdict in (Verdict.WA, Verdict.PE) else ""
    return CaseResult(**measured, verdict=checked.verdict, message=checked.message, diff=diff)


def _diff(answer: bytes, output: bytes) -> str:
    """A short unified diff of expected vs got, shown to students for failed sample tests."""
    expected = answer.decode("utf-8", errors="replace").splitlines()
    got = output.decode("utf-8", errors="replace").splitlines()
    lines = list(difflib.unified_diff(expected, got, "expected", "got", lineterm="", n=1))
    return "\n".join(line[:120] for line in lines[:DIFF_LINES])
