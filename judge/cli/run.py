"""`judge run PROBLEM SOURCE`: judge one submission and print its report in the format asked for."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from judge.cli.exit_codes import ExitCode
from judge.cli.options import chosen_format, format_options, sandbox_choice, sandbox_options, source_limit_option
from judge.judging import judge_submission
from judge.options import RunOptions
from judge.problem import load_problem
from judge.reporters.submission import REPORTERS
from judge.results import SubmissionResult
from judge.verdicts import Verdict


@click.command("run")
@click.argument("problem", type=click.Path(path_type=Path))
@click.argument("source", type=click.Path(path_type=Path))
@click.option("--lang", metavar="KEY", help="Language key (python3, pypy3, java, c, cpp, ...), instead of guessing "
                                           "from the extension.")
@format_options(REPORTERS)
@click.option("--fail-fast", is_flag=True, help="Stop at the first test that is not accepted.")
@source_limit_option
@sandbox_options
def run_command(problem: Path, source: Path, lang: str | None, report_format: str | None, as_json: bool,
                fail_fast: bool, source_limit: int | None, sandbox: str, require_sandbox: bool,
                containment: str | None) -> int:
    """Judge SOURCE on every test of PROBLEM and print a verdict per test."""
    shown = chosen_format(report_format, as_json)
    loaded = load_problem(problem)
    options = RunOptions(language=lang, fail_fast=fail_fast, sandbox=sandbox_choice(sandbox, require_sandbox),
                         containment=containment,
                         source_limit_kib=source_limit)
    result = judge_submission(loaded, source, options)
    REPORTERS[shown](result, sys.stdout)
    return exit_code(result)


def exit_code(result: SubmissionResult) -> ExitCode:
    """JE anywhere is the judge's failure (3), before the student's verdict (0 or 1)."""
    if result.verdict is Verdict.JE or any(case.verdict is Verdict.JE for case in result.cases):
        return ExitCode.JUDGE_FAILED
    return ExitCode.ACCEPTED if result.verdict is Verdict.AC else ExitCode.REJECTED
