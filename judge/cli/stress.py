"""`judge stress PROBLEM SOURCE`: find a small input on which SOURCE is not accepted."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import click

from judge.cli.exit_codes import ExitCode
from judge.cli.options import SANDBOX, SOURCE_LIMIT, format_options, language, run_options
from judge.inert import for_terminal
from judge.options import RunOptions
from judge.problems.load import load_problem_folder
from judge.reporters.stress import REPORTERS
from judge.reporters.terminal_text import counted
from judge.stress import DEFAULT_BUDGET_SECONDS, DEFAULT_MAX_EXAMPLES, StressReport, StressRequest, stress
from judge.stress.budget import OnTrial
from judge.verdicts import Verdict

MAX_SEED = 2**32 - 1
PIPE_LINE_SECONDS = 5.0


@click.command("stress")
@click.argument("problem", type=click.Path(path_type=Path))
@click.argument("source", type=click.Path(path_type=Path))
@click.option(
    "--reference",
    type=click.Path(path_type=Path),
    default=None,
    help="The program whose output is the expected answer (default: the first accepted submission under "
    "--submissions-dir/<id>/accepted/).",
)
@click.option("--submissions-dir", type=click.Path(path_type=Path), default=Path("submissions"), show_default=True)
@click.option(
    "--budget",
    "budget_seconds",
    type=click.FloatRange(min=0, min_open=True),
    default=DEFAULT_BUDGET_SECONDS,
    show_default=True,
    metavar="SECONDS",
    help="Stop searching after this long.",
)
@click.option(
    "--max-examples",
    type=click.IntRange(min=1),
    default=DEFAULT_MAX_EXAMPLES,
    show_default=True,
    help="Inputs to try at most (before shrinking).",
)
@click.option(
    "--seed",
    type=click.IntRange(0, MAX_SEED),
    default=None,
    help="Repeat a run exactly (default: a new random seed, printed).",
)
@click.option(
    "--database",
    type=click.Path(path_type=Path),
    default=None,
    help="Keep Hypothesis's failing examples in this folder and try them first next time, instead of "
    "a seed (default: nothing is kept).",
)
@format_options(REPORTERS)
@click.option("-q", "--quiet", is_flag=True, help="No progress on stderr.")
@run_options(language("The submission's"), SOURCE_LIMIT, SANDBOX)
def stress_command(
    problem: Path,
    source: Path,
    reference: Path | None,
    submissions_dir: Path,
    budget_seconds: float,
    max_examples: int,
    seed: int | None,
    database: Path | None,
    report_format: str,
    quiet: bool,
    options: RunOptions,
) -> int:
    """Run SOURCE on generated inputs of PROBLEM until one is not accepted, then shrink that input."""
    if seed is not None and database is not None:
        raise click.UsageError("--seed and --database: choose one; Hypothesis ignores its database in a seeded run")
    chosen_seed = (
        None if database is not None else seed if seed is not None else random.SystemRandom().randint(0, MAX_SEED)
    )
    request = StressRequest(
        problem=load_problem_folder(problem),
        source=source,
        reference=reference,
        submissions_dir=submissions_dir,
        budget_seconds=budget_seconds,
        max_examples=max_examples,
        seed=chosen_seed,
        options=options,
        database=database,
    )
    if not quiet:
        click.echo(
            f"judge stress: seed {chosen_seed}"
            if chosen_seed is not None
            else f"judge stress: examples kept in {database}",
            err=True,
        )
    result = stress(request, _trial_line(quiet))
    if not quiet and sys.stderr.isatty():
        click.echo("", err=True)
    REPORTERS[report_format](result, sys.stdout)
    return exit_code(result)


def _trial_line(quiet: bool) -> OnTrial:
    """A line on stderr: rewritten in place after every judged input on a terminal, else one every few seconds."""
    on_terminal = sys.stderr.isatty()
    last_shown = [-PIPE_LINE_SECONDS]

    def show(judged: int, seconds: float, size: str, verdict: Verdict) -> None:
        if quiet or (not on_terminal and seconds - last_shown[0] < PIPE_LINE_SECONDS):
            return
        last_shown[0] = seconds
        line = for_terminal(f"judged {counted(judged, 'input')}, {seconds:.1f} s; last: {size} {verdict.short}")
        click.echo(f"\r{line}\x1b[K" if on_terminal else line, err=True, nl=not on_terminal)

    return show


def exit_code(result: StressReport) -> ExitCode:
    """1 when a failing input was found (the submission is wrong), 0 when none was, 3 for JE."""
    if result.failure is None:
        return ExitCode.ACCEPTED
    return ExitCode.JUDGE_FAILED if result.failure.verdict is Verdict.JE else ExitCode.REJECTED
