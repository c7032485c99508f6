"""A `judge verify` report as a rich table, for people.

Paths, test names, validator details and messages are hostile text: they reach rich as `Text` through
`for_terminal`, never as markup.
"""

from __future__ import annotations

from typing import TextIO

from rich.console import Console
from rich.table import Table
from rich.text import Text

from judge.inert import for_terminal
from judge.reporters.terminal_text import counted
from judge.verify.report import WARNING, SubmissionCheck, VerifyReport


def _got(check: SubmissionCheck) -> Text:
    if check.got is None:
        return Text("skipped", style="dim")
    shown = Text(check.got.short, style=check.got.colour)
    if check.result is not None and check.result.score is not None:
        shown.append(f" {check.result.score_shown}")
    return shown


def _timing(check: SubmissionCheck) -> str:
    if check.result is None or not check.result.cases:
        return ""
    return f"{check.result.slowest_cpu_seconds:.2f} / {check.result.limits.time_seconds:g} s"


def _short_path(check: SubmissionCheck) -> str:
    """`<problem>/<expected folder>/<file>`: the part of the path that tells submissions apart."""
    return "/".join(check.path.parts[-3:])


def report(verified: VerifyReport, stream: TextIO) -> None:
    console = Console(file=stream, highlight=False, width=max(140, Console(file=stream).width))
    tests = [check for check in verified.data_checks if not check.note and not check.skipped]
    unmade = [check for check in verified.data_checks if check.skipped]
    bad_data = [check for check in tests if not check.ok]
    console.print(
        f"test data: {len(tests) - len(bad_data)}/{len(tests)} tests valid"
        + (f", {counted(len(unmade), 'check')} skipped" if unmade else "")
    )
    for noted in (check for check in verified.data_checks if check.note):
        console.print(
            Text.assemble(
                "  ",
                (noted.note, "bold yellow" if noted.note == WARNING else "yellow"),
                for_terminal(f" {noted.problem_id}: {noted.test}: {noted.detail}"),
            )
        )
    for unmade_check in unmade:
        console.print(
            Text.assemble(
                "  ",
                ("skipped", "yellow"),
                for_terminal(
                    f" {unmade_check.problem_id}/{unmade_check.test}: {unmade_check.skipped}; its checks were not made"
                ),
            )
        )
    for derived in verified.derived_limits:
        console.print(
            Text.assemble("  ", for_terminal(f"{derived.problem_id}: "), (for_terminal(derived.text), "cyan"))
        )
    for data_check in bad_data:
        console.print(
            Text.assemble(
                "  ",
                ("invalid", "red"),
                for_terminal(f" {data_check.problem_id}/{data_check.test}: {data_check.detail}"),
            )
        )
    table = Table(show_edge=False, pad_edge=False)
    for column in ("submission", "language", "expected", "got", "slowest CPU / limit", "note"):
        table.add_column(column, overflow="fold", no_wrap=column == "submission")
    for check in verified.submissions:
        note = f"MISMATCH: {check.mismatch}" if not check.ok else check.skipped or check.warning
        table.add_row(
            Text(for_terminal(_short_path(check))),
            Text(for_terminal(check.result.language if check.result else "")),
            check.expected.short,
            _got(check),
            _timing(check),
            Text(for_terminal(note), style="bold red" if not check.ok else "yellow" if note else ""),
        )
    console.print(table)
    mismatches = sum(not check.ok for check in verified.submissions)
    skipped = sum(bool(check.skipped) for check in verified.submissions)
    warnings = sum(bool(check.warning) for check in verified.submissions)
    for problem_id in verified.without_submissions:
        console.print(
            Text.assemble(
                ("warning", "yellow"),
                for_terminal(
                    f": problem {problem_id} has no reference submissions; add at least one accepted one in "
                    f"{verified.submissions_dir}/{problem_id}/accepted/"
                ),
            )
        )
    if verified.judged_nothing:
        console.print(
            Text.assemble(("FAILED", "bold red"), for_terminal(f": nothing was judged: {verified.judged_nothing}"))
        )
        return
    style = "bold green" if verified.ok else "bold red"
    console.print(
        f"[{style}]{'OK' if verified.ok else 'FAILED'}[/]: {counted(len(verified.submissions), 'submission')}, "
        f"{mismatches} mismatched, {skipped} skipped, {counted(warnings, 'warning')}"
    )
