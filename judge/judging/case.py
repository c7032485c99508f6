"""One test case of a submission: run the program, classify how it ended, check what it printed, and the short diff
a failed case shows. `judge_case` is the boundary: whatever fails around the case on the judge's side is that
case's JE (failures.py), never the whole submission's. An interactive problem's case runs the submission and the
validator together (interactive.py). A multi-pass problem's case runs the submission again while its output
validator accepts and writes the next pass's input (`nextpass.in`), up to the problem's passes; the first pass
that is not accepted decides, and a validator asking for a pass more than that, or writing the next input while
rejecting, is the problem's JE, as the format says.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import msgspec.structs

from judge.errors import JudgeFailure
from judge.judging import measuring
from judge.judging.failures import JUDGE_FAILURES, reason
from judge.judging.results import CaseResult
from judge.judging.run_ahead import RunAhead
from judge.judging.setup import JudgingSetup
from judge.problems.model import TestCase
from judge.runner import execute
from judge.runner.classify import Classification, classify
from judge.runner.run_files import read_whole
from judge.verdicts import Verdict

DIFF_LINES = 12
HIDDEN_DIFF_BYTES = 64 * 1024


def judge_case(setup: JudgingSetup, test: TestCase, ahead: RunAhead | None = None) -> CaseResult:
    """The boundary: whatever fails around this case on the judge's side is this case's JE, with one line.
    `ahead`: the submission's runs, the next test's begun while this one goes on (run_ahead.py)."""
    try:
        return _run_case(setup, test, ahead)
    except JUDGE_FAILURES as error:
        return CaseResult(
            name=test.name,
            verdict=Verdict.JE,
            cpu_seconds=0.0,
            wall_seconds=0.0,
            peak_mib=0.0,
            message=reason(error),
            is_sample=test.is_sample,
        )


def run_test(
    setup: JudgingSetup, test: TestCase, ahead: RunAhead | None = None
) -> tuple[dict[str, Any], Classification | None, Path]:
    """Run the program on one test without checking: what was measured, the verdict it earned before any checker
    (None when it exited cleanly), and the file holding its stdout. Run again where its time cannot be trusted
    yet (measuring.py): then every run's CPU time is kept, and the deciding run's output is the one checked.
    `ahead`: the run begun for it ahead, if any, and the next test's begun behind it (run_ahead.py)."""
    language = setup.program.toolchain.language
    if ahead is not None:
        first = ahead.begin(test)
    else:
        limits = measuring.stopping_limits(setup.limits, ())
        first = execute.begin(
            setup.run_spec(test.input_path), limits, setup.containment, setup.starter, setup.outputs, setup.give_way_at
        )
    spec = first.spec
    runs = [first.finish()]
    outputs = [spec.stdout_path]
    while measuring.wants_another_run(runs, setup.limits):
        if ahead is not None:
            ahead.drop()  # it would start before this test's next run
        outputs[-1] = spec.stdout_path.rename(spec.stdout_path.with_name(f"{spec.stdout_path.name}.{len(runs)}"))
        stopping = measuring.stopping_limits(setup.limits, runs)
        again = execute.begin(spec, stopping, setup.containment, setup.starter, setup.outputs, setup.give_way_at)
        runs.append(again.finish())
        outputs.append(spec.stdout_path)
    verdict_from = measuring.measured(runs, setup.limits)
    decides = verdict_from.decides
    if outputs[decides] != spec.stdout_path:
        outputs[decides].replace(spec.stdout_path)
    for kept in outputs:
        if kept != spec.stdout_path:
            kept.unlink(missing_ok=True)
    stats = runs[decides]
    measured = {
        "name": test.name,
        "cpu_seconds": round(stats.cpu_seconds, 3),
        "wall_seconds": round(stats.wall_seconds, 3),
        "peak_mib": round(stats.peak_mib, 1),
        "is_sample": test.is_sample,
        "cpu_runs": tuple(round(run.cpu_seconds, 3) for run in runs) if len(runs) > 1 else (),
        "near_limit_band": verdict_from.near_limit_band,
    }
    return measured, classify(stats, setup.limits, language.memory_errors), spec.stdout_path


def _run_case(setup: JudgingSetup, test: TestCase, ahead: RunAhead | None) -> CaseResult:
    if setup.problem.interactive:
        return _interactive_case(setup, test)
    if setup.problem.passes > 1:
        return _multi_pass_case(setup, test)
    measured, failure, output_path = run_test(setup, test, ahead)
    if failure is not None:
        return CaseResult(**measured, verdict=failure.verdict, message=failure.message)
    output = _output(setup, output_path)
    answer = read_whole(test.answer_path)
    checked = setup.checker_for(test)(input=read_whole(test.input_path), output=output, answer=answer)
    failed = checked.verdict in (Verdict.WA, Verdict.PE)
    diff = _diff(answer, output) if failed and _diffable(test, answer, output) else ""
    return CaseResult(**measured, verdict=checked.verdict, message=checked.message, diff=diff, score=checked.score)


def _output(setup: JudgingSetup, path: Path) -> bytes:
    """What a run printed, through the file kept for the next test where there is one (runner/execute.py)."""
    return setup.outputs.read(path) if setup.outputs is not None else read_whole(path)


def _multi_pass_case(setup: JudgingSetup, test: TestCase) -> CaseResult:
    """One test of a multi-pass problem: pass after pass, each reading the input the validator wrote on the one
    before, each under the full limits. The case's times and memory are its costliest pass's (the limits are
    per pass); its message names the pass that decided."""
    from judge.checkers.program import ProgramChecker  # noqa: PLC0415 -- only a package's validator, not every run

    checker, passes = setup.checker_for(test), setup.problem.passes
    if not isinstance(checker, ProgramChecker):
        raise JudgeFailure(f"{setup.problem.root}: a multi-pass problem needs an output validator program")
    answer = read_whole(test.answer_path)
    next_input = setup.program.scratch / "pass.in"
    runs: list[dict[str, Any]] = []
    current = test
    for number in range(1, passes + 1):
        measured, failure, output_path = run_test(setup, current)
        runs.append(measured)
        if failure is not None:
            return _passes_result(test, runs, failure.verdict, f"pass {number}: {failure.message}")
        checked = checker(
            input=read_whole(current.input_path),
            output=_output(setup, output_path),
            answer=answer,
            next_pass=number > 1,
        )
        asked = checker.take_next_pass(next_input)
        if asked and checked.verdict is not Verdict.AC:
            raise JudgeFailure(f"the output validator wrote nextpass.in on pass {number} but did not accept (exit 42)")
        if checked.verdict is not Verdict.AC:
            return _passes_result(test, runs, checked.verdict, f"pass {number}: {checked.message}", checked.score)
        if not asked:
            said = f"accepted on pass {number}" + (f": {checked.message}" if checked.message else "")
            return _passes_result(test, runs, Verdict.AC, said, checked.score)
        current = msgspec.structs.replace(test, input_path=next_input)
    raise JudgeFailure(
        f"the output validator wrote nextpass.in on pass {passes}, the last one (limits.validation_passes: {passes})"
    )


def _passes_result(
    test: TestCase, runs: list[dict[str, Any]], verdict: Verdict, message: str, score: float | None = None
) -> CaseResult:
    """A multi-pass case's result: `verdict` and `message`, with the largest times and memory of its passes."""
    costliest = {key: max(run[key] for run in runs) for key in ("cpu_seconds", "wall_seconds", "peak_mib")}
    return CaseResult(
        name=test.name, is_sample=test.is_sample, verdict=verdict, message=message, score=score, **costliest
    )


def _interactive_case(setup: JudgingSetup, test: TestCase) -> CaseResult:
    """One test of an interactive problem: the submission and the validator run together (interactive.py)."""
    from judge.checkers.program import ProgramChecker  # noqa: PLC0415 -- as in _multi_pass_case

    checker = setup.checker_for(test)
    if not isinstance(checker, ProgramChecker):
        raise JudgeFailure(f"{setup.problem.root}: an interactive problem needs an output validator program")
    from judge.judging.interactive import interact  # noqa: PLC0415 -- concurrent.futures, logging only when interactive

    language = setup.program.toolchain.language
    done = interact(
        setup.run_spec(test.input_path), setup.limits, language.memory_errors, setup.containment, checker, test
    )
    stats = done.submission
    return CaseResult(
        name=test.name,
        verdict=done.verdict,
        cpu_seconds=round(stats.cpu_seconds, 3),
        wall_seconds=round(stats.wall_seconds, 3),
        peak_mib=round(stats.peak_mib, 1),
        message=done.message,
        is_sample=test.is_sample,
        score=done.score,
    )


def _diffable(test: TestCase, answer: bytes, output: bytes) -> bool:
    """Samples always get a diff; hidden tests when both texts are small (difflib is slow on huge outputs). Which
    diffs a person sees is the feedback policy's choice (judge/judging/feedback.py), not the judging's."""
    return test.is_sample or max(len(answer), len(output)) <= HIDDEN_DIFF_BYTES


def _diff(answer: bytes, output: bytes) -> str:
    """A short unified diff of expected vs got, for a failed test."""
    import difflib  # noqa: PLC0415 -- only a failed test has a diff

    expected = answer.decode("utf-8", errors="replace").splitlines()
    got = output.decode("utf-8", errors="replace").splitlines()
    lines = list(difflib.unified_diff(expected, got, "expected", "got", lineterm="", n=1))
    return "\n".join(line[:120] for line in lines[:DIFF_LINES])
