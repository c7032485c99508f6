"""`judge similarity CLASS`: rank the pairs of students whose code for a problem is most alike."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import get_args

import click

from judge.class_folder import LayoutChoice, scan_class, source_limits
from judge.cli.options import SOURCE_LIMIT, run_options
from judge.options import RunOptions
from judge.problems.scan import load_problems
from judge.similarity import DEFAULT_THRESHOLD

TEMPLATE_LIMIT_BYTES = 1024 * 1024


@click.command("similarity")
@click.argument("class_dir", metavar="CLASS", type=click.Path(path_type=Path))
@click.option(
    "--problems",
    "problems_dir",
    type=click.Path(path_type=Path),
    default=Path("problems"),
    show_default=True,
    help="The problems folder, to tell which file is for which problem.",
)
@click.option(
    "--template",
    "templates",
    type=click.Path(path_type=Path),
    multiple=True,
    help="Code handed out to the class (a file or a folder; repeatable): removed before comparing.",
)
@click.option(
    "--threshold",
    type=click.FloatRange(0, 1),
    default=DEFAULT_THRESHOLD,
    show_default=True,
    help="Flag pairs whose score is at least this.",
)
@click.option(
    "--out",
    "out_dir",
    type=click.Path(path_type=Path),
    default=Path("results"),
    show_default=True,
    help="Folder for similarity.csv and similarity.html (report.html of judge grade links to it).",
)
@click.option("--layout", type=click.Choice(get_args(LayoutChoice)), default="auto", show_default=True)
@run_options(SOURCE_LIMIT)
def similarity_command(
    class_dir: Path,
    problems_dir: Path,
    templates: tuple[Path, ...],
    threshold: float,
    out_dir: Path,
    layout: LayoutChoice,
    options: RunOptions,
) -> int:
    """Score every pair of students' submissions to the same problem on tokens; print the flagged pairs."""
    problems = load_problems(problems_dir)
    class_folder = scan_class(class_dir, source_limits(problems, options), layout)
    from judge.reporters.similarity import TERMINAL, write_files  # copydetect and numpy: this command only
    from judge.similarity import compare_class
    from judge.similarity.templates import read_templates

    report = compare_class(class_folder, read_templates(templates, TEMPLATE_LIMIT_BYTES), threshold)
    TERMINAL["text"](report, sys.stdout)
    write_files(report, out_dir)
    click.echo(f"written: {out_dir / 'similarity.csv'}, {out_dir / 'similarity.html'}", err=True)
    return 0
