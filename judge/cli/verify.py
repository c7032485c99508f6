"""`judge verify [PROBLEM ...]`: check the problems' test data and their reference submissions."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from judge.batch.engine import Stopped
from judge.batch.executors import ExecutorChoice
from judge.batch.progress import BatchProgress
from judge.cli.exit_codes import ExitCode
from judge.cli.options import (
    chosen_format,
    default_jobs,
    executor_options,
    format_options,
    sandbox_choice,
    sandbox_options,
    source_limit_option,
)
from judge.cluster.address import scheduler_target
from judge.errors import JudgeError
from judge.options import RunOptions, SandboxChoice
from judge.reporters.verify import VERIFY_REPORTERS
from judge.suggest import nearby_path
from judge.verify.session import select_problems, verify


@click.command("verify")
@click.argument("problems", nargs=-1)
@click.option("--problems-dir", type=click.Path(path_type=Path), default=Path("problems"), show_default=True)
@click.option("--submissions-dir", type=click.Path(path_type=Path), default=Path("submissions"), show_default=True)
@executor_options
@format_options(VERIFY_REPORTERS)
@source_limit_option
@sandbox_options
@click.pass_context
def verify_command(
    ctx: click.Context,
    problems: tuple[str, ...],
    problems_dir: Path,
    submissions_dir: Path,
    jobs: int | None,
    scheduler: str | None,
    cluster_dir: Path | None,
    insecure: bool,
    report_format: str | None,
    as_json: bool,
    source_limit: int | None,
    sandbox: SandboxChoice,
    require_sandbox: bool,
    containment: str | None,
) -> int:
    """Check every problem's test data and that each reference submission gets its folder's verdict."""
    shown = chosen_format(report_format, as_json)
    if jobs is not None and scheduler is not None:
        raise JudgeError("--jobs and --scheduler: choose one; a Dask cluster's size is set by its workers")
    if not problems and not problems_dir.is_dir():
        raise JudgeError(
            f"{problems_dir}: no such folder{nearby_path(problems_dir)}; run judge verify in the folder "
            f"that holds problems/ and submissions/, or give --problems-dir DIR"
        )
    target = scheduler_target(scheduler, cluster_dir, insecure) if scheduler else None
    loaded = select_problems(problems_dir, problems)
    # The overall verdict is the first non-AC test's, so stopping there changes no verdict and saves minutes.
    options = RunOptions(
        fail_fast=True,
        sandbox=sandbox_choice(sandbox, require_sandbox),
        containment=containment,
        source_limit_kib=source_limit,
    )
    wanted = shown == "text" and BatchProgress.wanted(quiet=False)
    try:
        report = verify(
            loaded,
            submissions_dir,
            options,
            ExecutorChoice(jobs=jobs or default_jobs(), scheduler=target),
            lambda total: BatchProgress(total, enabled=wanted, label="verify", unit="submissions"),
        )
    except Stopped as stop:
        click.echo("judge verify: interrupted; nothing was verified", err=True)
        ctx.exit(ExitCode.for_signal(stop.signal_number))
    VERIFY_REPORTERS[shown](report, sys.stdout)
    return ExitCode.ACCEPTED if report.ok else ExitCode.REJECTED
