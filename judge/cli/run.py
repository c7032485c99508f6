"""`judge run PROBLEM SOURCE`: judge one submission and print its report in the format asked for.

The text report is printed as the judging goes (the header at once, each test's row as it finishes); the JSON and
JUnit documents are printed whole at the end, with the live rows on stderr when that is a terminal, so stdout
stays one document. Ctrl-C prints what was judged and the verdict so far, marked partial, and exits 130.
"""

from __future__ import annotations

import sys
from pathlib import Path

import click

from judge.cli.exit_codes import ExitCode
from judge.cli.options import FAIL_FAST, SANDBOX, SOURCE_LIMIT, format_options, language, run_options
from judge.judging.feedback import POLICIES, shown
from judge.judging.results import SubmissionResult
from judge.judging.submission import judge_submission
from judge.options import RunOptions
from judge.problems.load import load_problem_folder
from judge.reporters.submission import REPORTERS
from judge.reporters.submission.terminal import TextView
from judge.verdicts import Verdict


@click.command("run")
@click.argument("problem", type=click.Path(path_type=Path))
@click.argument("source", type=click.Path(path_type=Path))
@format_options(REPORTERS)
@click.option(
    "--feedback",
    type=click.Choice(list(POLICIES)),
    default="boj",
    show_default=True,
    help="boj: samples with a diff, hidden tests their verdict only, as BOJ; full: expected vs got on "
    "every test (for the teacher).",
)
@run_options(language("The submission's"), FAIL_FAST, SOURCE_LIMIT, SANDBOX)
def run_command(problem: Path, source: Path, report_format: str, feedback: str, options: RunOptions) -> int:
    """Judge SOURCE on every test of PROBLEM and print a verdict per test, each as it finishes."""
    loaded = load_problem_folder(problem)
    view_stream = sys.stdout if report_format == "text" else sys.stderr
    view = TextView(view_stream, feedback=feedback, live=view_stream.isatty())
    shown_live = report_format == "text" or view_stream.isatty()
    try:
        result = judge_submission(loaded, source, options, view if shown_live else None)
    except KeyboardInterrupt:  # the runner has killed the running test's processes on its way out
        if shown_live:
            view.interrupted()
        else:
            click.echo(
                f"judge: interrupted; no {report_format} document (it is printed when the judging ends)", err=True
            )
        return ExitCode.INTERRUPTED
    if shown_live:
        view.finish(result)
    if report_format != "text":
        REPORTERS[report_format](shown(result, feedback), sys.stdout)
    return exit_code(result)


def exit_code(result: SubmissionResult) -> ExitCode:
    """JE anywhere is the judge's failure (3), before the student's verdict (0 or 1)."""
    if result.verdict is Verdict.JE or any(case.verdict is Verdict.JE for case in result.cases):
        return ExitCode.JUDGE_FAILED
    return ExitCode.ACCEPTED if result.verdict is Verdict.AC else ExitCode.REJECTED
