"""Judging one submission on one problem: compile once, then run, classify and check every test in order.

A submission failing is a verdict, never an exception. `JudgeError` is raised only for bad input from a person
(unknown language, missing toolchain, required sandbox unavailable). A failure of the judge around one test case
(judge/failures.py) is that case's JE; one before any test runs (scratch folder, compiling, starting the checker)
is raised as a single `JudgeFailure`, which each command answers in its own way.
"""

from __future__ import annotations

import difflib
import os
from dataclasses import dataclass
from pathlib import Path

from judge import execute
from judge.checkers import Checker, open_checker
from judge.checkers.program import ProgramChecker
from judge.classify import classify
from judge.errors import JudgeFailure, SpecError, SubmissionError
from judge.execute import Limits, RunSpec
from judge.failures import JUDGE_FAILURES, as_failure, reason
from judge.interactive import interact
from judge.intake import read_source
from judge.language_table import Allowance, Language
from judge.languages import Toolchain, detect_language, resolve_toolchain
from judge.options import RunOptions
from judge.problem import SPEC_FILE, Problem, ProblemSpec, TestCase
from judge.problem_code import ProblemCodeBox
from judge.results import CaseResult, SubmissionResult
from judge.program import Program
from judge.sandbox import Sandbox, choose_sandbox, scratch_folder
from judge.verdicts import Verdict

DIFF_LINES = 12


@dataclass(frozen=True)
class _Setup:
    """Everything fixed for the runs of one submission."""

    problem: Problem
    program: Program
    limits: Limits
    checker: Checker


def judge_submission(problem: Problem, source: Path, options: RunOptions) -> SubmissionResult:
    """Judge `source` on every test of `problem` (or up to the first failure with `fail_fast`)."""
    if problem.time_limit_pending:
        raise SpecError(f"{problem.root / SPEC_FILE}: limits.time_limit: the package gives no time limit; "
                        f"`judge verify {problem.root}` derives one from its accepted submissions: write it there "
                        f"(or in .timelimit)")
    if not os.path.lexists(source):
        raise SubmissionError(f"{source}: no such file; give the path of a submission's source file")
    text = read_source(source, options.source_limit_bytes(problem.spec.source_limit))  # never a link, FIFO, ...
    language = detect_language(source, options.language)
    toolchain = resolve_toolchain(language)
    sandbox = choose_sandbox(options.sandbox)
    limits = effective_limits(problem.spec, language)
    try:
        return _judge_in_scratch(problem, source, options, text, toolchain, sandbox, limits)
    except JUDGE_FAILURES as error:
        raise as_failure(error) from None


def _judge_in_scratch(problem: Problem, source: Path, options: RunOptions, text: bytes, toolchain: Toolchain,
                      sandbox: Sandbox, limits: Limits) -> SubmissionResult:
    language = toolchain.language
    with scratch_folder("judge-") as scratch:
        program = Program.write(toolchain, sandbox, scratch, scratch / "program", text, source.name)
        with open_checker(problem, ProblemCodeBox.of(sandbox), scratch) as checker:
            setup = _Setup(problem, program, limits, checker)
            base = dict(
                problem_id=problem.id, submission=str(source), language=language.display, limits=limits,
                isolation=sandbox.name, memory_enforcement=execute.memory_enforcement(),
            )
            compiled = program.compile()
            if not compiled.ok:
                zero = dict(score=0.0, max_score=round(problem.scoring.max_score(), 6)) if problem.scoring else {}
                return SubmissionResult(**base, verdict=Verdict.CE, compile_message=compiled.message, **zero)
            cases = _judge_cases(setup, options)
    if problem.scoring is not None:
        verdict, score = problem.scoring.grade({case.name: case.verdict for case in cases})
        return SubmissionResult(**base, verdict=verdict, cases=tuple(cases), compile_message=compiled.message,
                                score=round(score, 6), max_score=round(problem.scoring.max_score(), 6))
    verdict = next((case.verdict for case in cases if case.verdict is not Verdict.AC), Verdict.AC)
    return SubmissionResult(**base, verdict=verdict, cases=tuple(cases), compile_message=compiled.message)


def _judge_cases(setup: _Setup, options: RunOptions) -> list[CaseResult]:
    """Every test in order; with `fail_fast`, up to the first that is not AC. A scored problem's tests are all
    judged (a failure does not decide its score), except those after a failure in a group that breaks."""
    scoring = setup.problem.scoring
    cases: list[CaseResult] = []
    for test in setup.problem.tests:
        if scoring is not None and test.name in scoring.skipped_by_break({case.name: case.verdict for case in cases}):
            continue
        cases.append(_judge_case(setup, test))
        if options.fail_fast and scoring is None and cases[-1].verdict is not Verdict.AC:
            break
    return cases


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


def _judge_case(setup: _Setup, test: TestCase) -> CaseResult:
    """The boundary: whatever fails around this case on the judge's side is this case's JE, with one line."""
    try:
        return _run_case(setup, test)
    except JUDGE_FAILURES as error:
        return CaseResult(name=test.name, verdict=Verdict.JE, cpu_seconds=0.0, wall_seconds=0.0, peak_mib=0.0,
                          message=reason(error), is_sample=test.is_sample)


def _run_case(setup: _Setup, test: TestCase) -> CaseResult:
    language = setup.program.toolchain.language
    argv = setup.program.command(language.run, setup.limits.memory_mib)
    spec = setup.program.run_spec(argv, test.input_path, "run")
    if setup.problem.interactive:
        return _interactive_case(setup, test, spec)
    stats = execute.run(spec, setup.limits)
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


def _interactive_case(setup: _Setup, test: TestCase, spec: RunSpec) -> CaseResult:
    """One test of an interactive problem: the submission and the validator run together (interactive.py)."""
    if not isinstance(setup.checker, ProgramChecker):
        raise JudgeFailure(f"{setup.problem.root}: an interactive problem needs an output validator program")
    done = interact(spec, setup.limits, setup.program.toolchain.language.memory_errors, setup.checker, test)
    stats = done.submission
    return CaseResult(name=test.name, verdict=done.verdict, cpu_seconds=round(stats.cpu_seconds, 3),
                      wall_seconds=round(stats.wall_seconds, 3), peak_mib=round(stats.peak_mib, 1),
                      message=done.message, is_sample=test.is_sample)


def _diff(answer: bytes, output: bytes) -> str:
    """A short unified diff of expected vs got, shown to students for failed sample tests."""
    expected = answer.decode("utf-8", errors="replace").splitlines()
    got = output.decode("utf-8", errors="replace").splitlines()
    lines = list(difflib.unified_diff(expected, got, "expected", "got", lineterm="", n=1))
    return "\n".join(line[:120] for line in lines[:DIFF_LINES])
