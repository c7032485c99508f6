"""`judge answers PROBLEM`: write each test's .ans from a reference solution (judge/answers.py)."""

from __future__ import annotations

from pathlib import Path

import click

from judge.answers import OVERWRITTEN, UNCHANGED, WRITTEN, reference_for, write_answers
from judge.cli.exit_codes import ExitCode
from judge.cli.options import SANDBOX, SOURCE_LIMIT, language, run_options
from judge.inert import for_terminal
from judge.options import RunOptions
from judge.problems.load import load_problem_folder


@click.command("answers")
@click.argument("problem", type=click.Path(path_type=Path))
@click.option(
    "--reference",
    type=click.Path(path_type=Path),
    default=None,
    help="The solution whose output becomes the answers [default: the first file in SUBMISSIONS_DIR/<id>/accepted/].",
)
@click.option("--submissions-dir", type=click.Path(path_type=Path), default=Path("submissions"), show_default=True)
@click.option("--force", is_flag=True, help="Overwrite .ans files that differ from the reference's output.")
@run_options(language("The reference's"), SOURCE_LIMIT, SANDBOX)
def answers_command(
    problem: Path, reference: Path | None, submissions_dir: Path, force: bool, options: RunOptions
) -> int:
    """Write PROBLEM's tests/<name>.ans from a reference solution's output, run as `judge run` runs it."""
    loaded = load_problem_folder(problem, require_answers=False)
    source = reference_for(loaded, submissions_dir, reference)
    written = write_answers(loaded, source, options, force=force)
    for answer in written:
        click.echo(for_terminal(f"{answer.status:<11} {answer.path}"))
    counts = {
        status: sum(answer.status == status for answer in written) for status in (WRITTEN, OVERWRITTEN, UNCHANGED)
    }
    click.echo(
        for_terminal(f"answers from {source}: " + ", ".join(f"{count} {status}" for status, count in counts.items()))
    )
    return ExitCode.ACCEPTED
