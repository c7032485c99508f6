"""`judge grade PROBLEMS CLASS --out RESULTS`: grade a class and write its gradebook.

Exit status: 0 when the grading completed, whatever the students' verdicts; 3 when the judge failed on some pair
(JE); 2 for bad input (raised as JudgeError, which the CLI turns into one line on stderr); 128 + the signal
number when interrupted by Ctrl-C or SIGTERM.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import get_args

import click

from judge.batch.executors import ExecutorChoice
from judge.batch.status_bar import StatusBar
from judge.class_folder import LayoutChoice
from judge.cli.executor_options import executor_options
from judge.cli.exit_codes import ExitCode
from judge.cli.options import SANDBOX, SOURCE_LIMIT, handing, run_options
from judge.grading.session import GradeRequest, GradeSummary, Interrupted, grade
from judge.inert import for_terminal
from judge.options import RunOptions
from judge.reporters.gradebook import write_views
from judge.reporters.stress.summary import StressLines
from judge.reporters.terminal_text import counted
from judge.verdicts import Verdict


@click.command("grade")
@click.argument("problems_dir", metavar="PROBLEMS", type=click.Path(path_type=Path))
@click.argument("class_dir", metavar="CLASS", type=click.Path(path_type=Path))
@click.option(
    "--out",
    "out_dir",
    type=click.Path(path_type=Path),
    default=Path("results"),
    show_default=True,
    help="Folder for results.sqlite, grades.csv, grades.json, report.html, canvas.csv and moodle.csv.",
)
@click.option(
    "--layout",
    type=click.Choice(get_args(LayoutChoice)),
    default="auto",
    show_default=True,
    help="CLASS/<student>/<problem>.<ext> or CLASS/<problem>/<student>.<ext>; auto tells them apart.",
)
@executor_options
@click.option("--force", is_flag=True, help="Judge every pair again, even those with an up-to-date result.")
@click.option("--partial", is_flag=True, help="Score the fraction of tests passed instead of 1 per accepted problem.")
@handing(
    "stress_budget",
    ("stress", "stress_budget"),
    lambda stress, stress_budget: stress_budget if stress else None,
    (
        click.option(
            "--stress",
            is_flag=True,
            help="For every WA pair, search for the smallest failing input (judge "
            "stress) and show it on the pair's page in report.html.",
        ),
        click.option(
            "--stress-budget",
            type=click.FloatRange(min=0, min_open=True),
            default=20.0,
            show_default=True,
            metavar="SECONDS",
            help="How long --stress searches per WA pair.",
        ),
    ),
)
@click.option(
    "--submissions-dir",
    type=click.Path(path_type=Path),
    default=Path("submissions"),
    show_default=True,
    help="Where --stress finds each problem's accepted reference (<dir>/<id>/accepted/).",
)
@click.option(
    "--roster",
    type=click.Path(path_type=Path),
    default=None,
    help="roster.csv (id,name and optionally email,sis_id,section): names and LMS ids in the exports.",
)
@click.option(
    "--assignments",
    type=click.Path(path_type=Path),
    default=None,
    help="Assignments file (due times, late credit) [default: PROBLEMS/assignments.yaml if there is one]. "
    "A submission's time is its file's modification time.",
)
@click.option("-q", "--quiet", is_flag=True, help="No progress bar and no summary on stderr.")
@run_options(SOURCE_LIMIT, SANDBOX)
def grade_command(
    problems_dir: Path,
    class_dir: Path,
    out_dir: Path,
    layout: LayoutChoice,
    executor: ExecutorChoice,
    force: bool,
    partial: bool,
    stress_budget: float | None,
    submissions_dir: Path,
    roster: Path | None,
    assignments: Path | None,
    quiet: bool,
    options: RunOptions,
) -> int:
    """Judge every student's submission to every problem and write a gradebook.

    Results are stored as they arrive; running the same command again judges only the pairs that are missing
    or whose source, problem or judge version changed (or that a stopped --force run did not reach).
    """
    stress_lines = (
        StressLines(lambda line: click.echo(line, err=True)) if stress_budget is not None and not quiet else None
    )
    request = GradeRequest(
        problems_dir=problems_dir,
        class_dir=class_dir,
        out_dir=out_dir,
        layout=layout,
        executor=executor,
        options=options,
        force=force,
        partial=partial,
        show_progress=StatusBar.wanted(quiet=quiet),
        stress_budget=stress_budget,
        stress_told=stress_lines,
        submissions_dir=submissions_dir,
        roster=roster,
        assignments=assignments,
    )
    try:
        summary = grade(request, lambda gradebook: write_views(gradebook, out_dir))
    except Interrupted as stop:
        click.echo(f"judge grade: {stop}", err=True)
        return ExitCode.for_signal(stop.signal_number)
    if stress_lines:
        stress_lines.finish()
    if not quiet:
        _print_summary(summary, out_dir)
    if summary.gradebook.judge_failed:
        failed = sum(result.verdict is Verdict.JE for result in summary.gradebook.results.values())
        click.echo(f"judge grade: the judge failed on {failed} pair(s) (JE); see {out_dir / 'report.html'}", err=True)
        return ExitCode.JUDGE_FAILED
    return ExitCode.ACCEPTED


def _print_summary(summary: GradeSummary, out_dir: Path) -> None:
    gradebook = summary.gradebook
    for item in gradebook.unmatched:  # names from the class folder: escape sequences and non-UTF-8 bytes made visible
        click.echo(for_terminal(f"unmatched: {item.relative}: {item.reason}"), err=True)
    counts = Counter(result.verdict for result in gradebook.results.values())
    verdicts = " ".join(f"{verdict.short} {counts[verdict]}" for verdict in Verdict if counts[verdict])
    click.echo(
        f"graded {counted(len(gradebook.results), 'pair')} ({counted(len(gradebook.students), 'student')}, "
        f"{counted(len(gradebook.problems), 'problem')}): judged {summary.judged}, up to date {summary.reused}; "
        f"{verdicts or 'no submissions'}; "
        f"{len(gradebook.unmatched)} unmatched; results in {out_dir}",
        err=True,
    )
