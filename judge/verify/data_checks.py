"""A problem's test data checked before any submission is judged: the validator accepts every .in, every input
validator of a package accepts it too (given the test's group's `input_validator_args`), and the checker accepts
every .ans as an answer to its own input (where a .ans is an output: not on interactive or multi-pass problems)."""

from __future__ import annotations

from pathlib import Path

from judge.checkers import Checker, open_checker, open_test_checkers
from judge.errors import JudgeFailure, SpecError, SubmissionError, ToolchainMissing
from judge.judging.failures import JUDGE_FAILURES, reason
from judge.languages.detection import detect_language
from judge.problems.model import Problem, TestCase
from judge.problems.packages.rules import ValidatorArgs
from judge.programs.runs import ProblemPrograms
from judge.programs.validators import InputValidator, run_validator
from judge.runner.sandbox import scratch_folder
from judge.verdicts import Verdict
from judge.verify.report import NOTE, WARNING, TestDataCheck

NO_SECRET_DATA = (
    "No secret data provided: every test is a sample, so the reference submissions were judged on the samples "
    "alone; add tests in data/secret/ (in our layout, tests/ files not named sample*)"
)
"""problemtools' warning, with what it means here."""
VALIDATOR_LANGUAGES = {".ctd": "checktestdata scripts", ".viva": "Viva scripts"}
"""Validator languages packages use that judge does not run (problemtools runs them with checktestdata, Viva)."""


def check_test_data(problem: Problem, programs: ProblemPrograms) -> list[TestDataCheck]:
    """Run the validator on every input and the checker on every reference answer, both confined through
    `programs` (problem code is not trusted: judge/programs/runs.py). The judge failing on a test
    (judge/judging/failures.py) fails that test's check."""
    validator = problem.root / problem.spec.validator if problem.spec.validator else None
    checks: list[TestDataCheck] = []
    if problem.unused_keys:
        checks.append(
            TestDataCheck(
                problem.id,
                "unused keys",
                True,
                f"the specification defines them, judge does not use them: {', '.join(problem.unused_keys)}",
                note=NOTE,
            )
        )
    if all(test.is_sample for test in problem.tests):
        checks.append(TestDataCheck(problem.id, "secret data", True, NO_SECRET_DATA, note=WARNING))
    try:
        with scratch_folder("judge-data-") as scratch:
            input_validators = _input_validators(problem, programs, scratch, checks)
            with (
                open_checker(problem, programs, scratch) as checker,
                open_test_checkers(problem, programs, scratch) as test_checkers,
            ):
                for test in problem.tests:
                    try:
                        own = test_checkers.get(test.name, checker)
                        check = _check_test(
                            problem.id, test, validator, programs, own, scratch, problem.answers_are_outputs
                        )
                        args = problem.input_validator_args.get(test.name, ValidatorArgs())
                        checks.append(_with_input_validators(check, test, input_validators, args))
                    except JUDGE_FAILURES as error:
                        checks.append(TestDataCheck(problem.id, test.name, False, reason(error)))
    except JUDGE_FAILURES as error:  # before any test: the scratch folder, or starting checker.py
        checks.append(TestDataCheck(problem.id, "*", False, reason(error)))
    return checks


def _input_validators(
    problem: Problem, programs: ProblemPrograms, scratch: Path, checks: list[TestDataCheck]
) -> list[InputValidator]:
    """A package's input validators, compiled once; one judge cannot run here (a language it does not have, or whose
    toolchain is missing) is a skipped check saying why, as a reference submission in such a language is skipped:
    not a failure, and not a pass either."""
    validators = []
    for index, path in enumerate(problem.input_validators):
        label = f"{path.parent.name}/{path.name}"
        try:
            validators.append(InputValidator.build(path, label, programs, scratch, index))
        except ToolchainMissing as missing:
            checks.append(TestDataCheck(problem.id, label, True, "", skipped=str(missing)))
        except SubmissionError as error:
            checks.append(TestDataCheck(problem.id, label, True, "", skipped=_cannot_run(path, error)))
        except SpecError as error:
            checks.append(TestDataCheck(problem.id, label, False, str(error)))
    return validators


def _cannot_run(path: Path, error: SubmissionError) -> str:
    """Why judge cannot run the validator at `path`: its kind when judge knows of it (a checktestdata script),
    else no language for its suffix, else what the error says (a folder without one main source)."""
    if path.is_dir():
        return str(error).removeprefix(f"{path}: ")
    try:
        detect_language(path)
    except SubmissionError:
        suffix = path.suffix or "extensionless"
        kind = VALIDATOR_LANGUAGES.get(path.suffix.lower())
        return f"judge does not run {kind} ({suffix})" if kind else f"no language judges {suffix} files here"
    return str(error).removeprefix(f"{path}: ")


def _with_input_validators(
    check: TestDataCheck, test: TestCase, programs: list[InputValidator], args: ValidatorArgs
) -> TestDataCheck:
    """`check` with every input validator's verdict on the test's input, given its arguments, added."""
    verdicts = [program(test.input_path, args.for_validator(program.path)) for program in programs]
    failed = [verdict.message for verdict in verdicts if not verdict.legal]
    if not failed:
        return check
    detail = "; ".join([check.detail, *failed] if check.detail else failed)
    return TestDataCheck(check.problem_id, check.test, False, detail)


def _check_test(
    problem_id: str,
    test: TestCase,
    validator: Path | None,
    programs: ProblemPrograms,
    checker: Checker,
    scratch: Path,
    answers_are_outputs: bool = True,
) -> TestDataCheck:
    details, ok = [], True
    if validator is not None:
        verdict = run_validator(programs, validator, test.input_path, scratch)
        ok = verdict.legal
        details.append(verdict.message)
    if not answers_are_outputs:  # the validator talks with a submission, or writes its next input: no .ans to judge
        return TestDataCheck(problem_id, test.name, ok, "; ".join(detail for detail in details if detail))
    answer = test.answer_path.read_bytes()
    try:
        checked = checker(input=test.input_path.read_bytes(), output=answer, answer=answer)
    except JudgeFailure as failure:
        ok = False
        details.append(f"checker failed on the .ans: {failure}")
    else:
        if checked.verdict is not Verdict.AC:
            ok = False
            details.append(f"checker rejects the .ans: {checked.message}")
    return TestDataCheck(problem_id, test.name, ok, "; ".join(detail for detail in details if detail))
