"""`judge verify [PROBLEM ...]`: check the problems' test data and their reference submissions."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from judge.batch.engine import Stopped
from judge.batch.executors import ExecutorChoice
from judge.batch.status_bar import StatusBar
from judge.cli.executor_options import executor_options
from judge.cli.exit_codes import ExitCode
from judge.cli.options import SANDBOX, SOURCE_LIMIT, format_options, run_options
from judge.errors import JudgeError
from judge.options import RunOptions
from judge.reporters.verify import VERIFY_REPORTERS
from judge.suggest import nearby_path
from judge.verify.session import select_problems, verify


@click.command("verify")
@click.argument("problems", nargs=-1)
@click.option("--problems-dir", type=click.Path(path_type=Path), default=Path("problems"), show_default=True)
@click.option("--submissions-dir", type=click.Path(path_type=Path), default=Path("submissions"), show_default=True)
@executor_options
@format_options(VERIFY_REPORTERS)
# The overall verdict is the first non-AC test's, so stopping there changes no verdict and saves minutes.
@run_options(SOURCE_LIMIT, SANDBOX, fail_fast=True)
def verify_command(
    problems: tuple[str, ...],
    problems_dir: Path,
    submissions_dir: Path,
    executor: ExecutorChoice,
    report_format: str,
    options: RunOptions,
) -> int:
    """Check every problem's test data and that each reference submission gets its folder's verdict."""
    if not problems and not problems_dir.is_dir():
        raise JudgeError(
            f"{problems_dir}: no such folder{nearby_path(problems_dir)}; run judge verify in the folder "
            f"that holds problems/ and submissions/, or give --problems-dir DIR"
        )
    loaded = select_problems(problems_dir, problems)
    wanted = report_format == "text" and StatusBar.wanted(quiet=False)
    try:
        report = verify(
            loaded,
            submissions_dir,
            options,
            executor,
            lambda total: StatusBar(total, enabled=wanted, label="verify", unit="submissions"),
        )
    except Stopped as stop:
        click.echo("judge verify: interrupted; nothing was verified", err=True)
        return ExitCode.for_signal(stop.signal_number)
    VERIFY_REPORTERS[report_format](report, sys.stdout)
    return ExitCode.ACCEPTED if report.ok else ExitCode.REJECTED
