"""`judge verify [PROBLEM ...]`: check the problems' test data and their reference submissions."""

from __future__ import annotations

import sys
from pathlib import Path

import click
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from judge.cli.exit_codes import ExitCode
from judge.cli.options import chosen_format, default_jobs, format_options, sandbox_choice, sandbox_options
from judge.options import RunOptions
from judge.problem import load_problem
from judge.reporters.verify import VERIFY_REPORTERS
from judge.verify import problem_folders, verify


@click.command("verify")
@click.argument("problems", nargs=-1)
@click.option("--problems-dir", type=click.Path(path_type=Path), default=Path("problems"), show_default=True)
@click.option("--submissions-dir", type=click.Path(path_type=Path), default=Path("submissions"), show_default=True)
@click.option("-j", "--jobs", type=click.IntRange(min=1), default=default_jobs(), show_default="cores",
              help="Submissions judged in parallel.")
@format_options(VERIFY_REPORTERS)
@sandbox_options
def verify_command(problems: tuple[str, ...], problems_dir: Path, submissions_dir: Path, jobs: int,
                   report_format: str | None, as_json: bool, sandbox: str, require_sandbox: bool) -> int:
    """Check every problem's test data and that each reference submission gets its folder's verdict."""
    shown = chosen_format(report_format, as_json)
    loaded = [load_problem(folder) for folder in problem_folders(problems_dir, problems)]
    # The overall verdict is the first non-AC test's, so stopping there changes no verdict and saves minutes.
    options = RunOptions(fail_fast=True, sandbox=sandbox_choice(sandbox, require_sandbox))
    progress = Progress(TextColumn("verify"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                        TextColumn("{task.description}"), console=Console(stderr=True), transient=True,
                        disable=shown != "text" or not sys.stderr.isatty())
    with progress:
        task = progress.add_task("", total=None)

        def advance(description: str, total: int) -> None:
            progress.update(task, total=total, description=description)
            if description != "start":
                progress.advance(task)

        report = verify(loaded, submissions_dir, options, jobs, advance)
    VERIFY_REPORTERS[shown](report, sys.stdout)
    return ExitCode.ACCEPTED if report.ok else ExitCode.REJECTED
