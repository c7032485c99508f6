"""The command line: `judge run`, `judge verify`, `judge grade`, `judge doctor`.

Exit codes: 0 accepted, 1 another verdict, 2 bad input from a person (one line on stderr), 3 the judge failed.
"""

from __future__ import annotations

import sys
from pathlib import Path

import click
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table
from rich.text import Text

from judge import __version__
from judge.cli_options import default_jobs, sandbox_choice, sandbox_options, source_limit_option
from judge.doctor import examine
from judge.errors import JudgeError
from judge.failures import JUDGE_FAILURES, reason
from judge.inert import for_terminal
from judge.grading.command import grade_command
from judge.judging import judge_submission
from judge.languages import LANGUAGES
from judge.options import RunOptions
from judge.problem import load_problem
from judge.reporters import REPORTERS
from judge.reporters.verify_report import report_json, report_text
from judge.verdicts import Verdict
from judge.verify import problem_folders, verify as verify_problems

EXIT_ACCEPTED, EXIT_REJECTED, EXIT_USAGE, EXIT_JUDGE_FAILED = 0, 1, 2, 3


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="judge")
def cli() -> None:
    """Grade programs the way Baekjoon Online Judge does."""


@cli.command()
@click.argument("problem", type=click.Path(path_type=Path))
@click.argument("source", type=click.Path(path_type=Path))
@click.option("--lang", type=click.Choice(sorted(LANGUAGES)), help="Language, instead of guessing from the extension.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON document instead of the table.")
@click.option("--format", "report_format", type=click.Choice(sorted(REPORTERS)), default="text", show_default=True)
@click.option("--fail-fast", is_flag=True, help="Stop at the first test that is not accepted.")
@source_limit_option
@sandbox_options
def run(problem: Path, source: Path, lang: str | None, as_json: bool, report_format: str, fail_fast: bool,
        source_limit: int | None, sandbox: str, require_sandbox: bool) -> int:
    """Judge SOURCE on every test of PROBLEM and print a verdict per test."""
    loaded = load_problem(problem)
    options = RunOptions(language=lang, fail_fast=fail_fast, sandbox=sandbox_choice(sandbox, require_sandbox),
                         source_limit_kib=source_limit)
    result = judge_submission(loaded, source, options)
    REPORTERS["json" if as_json else report_format](result, sys.stdout)
    if result.verdict is Verdict.JE or any(case.verdict is Verdict.JE for case in result.cases):
        return EXIT_JUDGE_FAILED
    return EXIT_ACCEPTED if result.verdict is Verdict.AC else EXIT_REJECTED


@cli.command()
@click.argument("problems", nargs=-1)
@click.option("--problems-dir", type=click.Path(path_type=Path), default=Path("problems"), show_default=True)
@click.option("--submissions-dir", type=click.Path(path_type=Path), default=Path("submissions"), show_default=True)
@click.option("-j", "--jobs", type=click.IntRange(min=1), default=default_jobs(), show_default="cores",
              help="Submissions judged in parallel.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON document instead of the table.")
@sandbox_options
def verify(problems: tuple[str, ...], problems_dir: Path, submissions_dir: Path, jobs: int, as_json: bool,
           sandbox: str, require_sandbox: bool) -> int:
    """Check every problem's test data and that each reference submission gets its folder's verdict."""
    loaded = [load_problem(folder) for folder in problem_folders(problems_dir, problems)]
    # The overall verdict is the first non-AC test's, so stopping there changes no verdict and saves minutes.
    options = RunOptions(fail_fast=True, sandbox=sandbox_choice(sandbox, require_sandbox))
    progress = Progress(TextColumn("verify"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                        TextColumn("{task.description}"), console=Console(stderr=True), transient=True,
                        disable=as_json or not sys.stderr.isatty())
    with progress:
        task = progress.add_task("", total=None)

        def advance(description: str, total: int) -> None:
            progress.update(task, total=total, description=description)
            if description != "start":
                progress.advance(task)

        report = verify_problems(loaded, submissions_dir, options, jobs, advance)
    (report_json if as_json else report_text)(report, sys.stdout)
    return EXIT_ACCEPTED if report.ok else EXIT_REJECTED


@cli.command()
def doctor() -> int:
    """Show the toolchains, memory limiting and sandbox this machine offers."""
    table = Table(show_edge=False)
    for column in ("what", "status", "detail"):
        table.add_column(column, overflow="fold")
    for finding in examine():
        style = {"ok": "green", "warn": "yellow", "missing": "yellow", "none": "bold yellow"}.get(finding.status, "")
        table.add_row(finding.topic, Text(finding.status, style=style), Text(finding.detail))
    Console(width=max(110, Console().width)).print(table)
    return EXIT_ACCEPTED


cli.add_command(grade_command, "grade")


def main(argv: list[str] | None = None) -> int:
    """Entry point: runs the command; a JudgeError is one line on stderr and exit 2, a failure of the judge
    (judge/failures.py) or any bug one line and exit 3. Never a traceback."""
    try:
        code = cli.main(args=argv, prog_name="judge", standalone_mode=False)
    except JudgeError as error:
        click.echo(for_terminal(f"judge: {error}"), err=True)  # messages quote paths, which may hold escapes
        return EXIT_USAGE
    except JUDGE_FAILURES as error:  # the judge failed before any test (compiling, a full temp folder, ...)
        click.echo(for_terminal(f"judge: judge error: {reason(error)}"), err=True)
        return EXIT_JUDGE_FAILED
    except click.exceptions.Abort:
        click.echo("judge: interrupted", err=True)
        return 130
    except click.UsageError as error:
        command = error.ctx.command_path if error.ctx else "judge"
        click.echo(f"judge: {error.format_message()} (see '{command} --help')", err=True)
        return EXIT_USAGE
    except click.ClickException as error:
        click.echo(f"judge: {error.format_message()}", err=True)
        return EXIT_USAGE
    except Exception as error:  # noqa: BLE001 -- the last resort: a bug in the judge, told in one line
        click.echo(for_terminal(f"judge: internal error (a bug in the judge; please report it): "
                                f"{type(error).__name__}: {' '.join(str(error).split())}"), err=True)
        return EXIT_JUDGE_FAILED
    return code if isinstance(code, int) else EXIT_ACCEPTED
