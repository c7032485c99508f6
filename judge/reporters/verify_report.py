"""Presenting a `judge verify` report: a rich table for people, one JSON document for machines.

Paths, test names, validator details and messages are hostile text: they reach rich as `Text` through
`for_terminal` (never as markup), and the JSON is written by `json_document` (pure ASCII).
"""

from __future__ import annotations

from typing import Callable, TextIO

from rich.console import Console
from rich.table import Table
from rich.text import Text

from judge.inert import for_terminal, json_document
from judge.verify import SubmissionCheck, VerifyReport


def _got(check: SubmissionCheck) -> Text:
    if check.got is None:
        return Text("skipped", style="dim")
    return Text(check.got.short, style=check.got.colour)


def _timing(check: SubmissionCheck) -> str:
    if check.result is None or not check.result.cases:
        return ""
    return f"{check.result.slowest_cpu_seconds:.2f} / {check.result.limits.time_seconds:g} s"


def _short_path(check: SubmissionCheck) -> str:
    """`<problem>/<expected folder>/<file>`: the part of the path that tells submissions apart."""
    return "/".join(check.path.parts[-3:])


def _first_line(message: str) -> str:
    """A message's summary line (an RE's further lines are its stderr tail; `judge run` shows them in full)."""
    return message.split("\n")[0]


def report_text(report: VerifyReport, stream: TextIO) -> None:
    console = Console(file=stream, highlight=False, width=max(140, Console(file=stream).width))
    bad_data = [check for check in report.data_checks if not check.ok]
    console.print(f"test data: {len(report.data_checks) - len(bad_data)}/{len(report.data_checks)} tests valid")
    for check in bad_data:
        console.print(Text.assemble("  ", ("invalid", "red"),
                                    for_terminal(f" {check.problem_id}/{check.test}: {check.detail}")))
    table = Table(show_edge=False, pad_edge=False)
    for column in ("submission", "language", "expected", "got", "slowest CPU / limit", "note"):
        table.add_column(column, overflow="fold", no_wrap=column == "submission")
    for check in report.submissions:
        note = check.skipped or check.slow_warning
        if not check.ok:
            note = "MISMATCH" + (f": {check.failed}" if check.failed else
                                 f": {_first_line(check.result.cases[-1].message)}"
                                 if check.result and check.result.cases else "")
        table.add_row(
            Text(for_terminal(_short_path(check))), Text(for_terminal(check.result.language if check.result else "")),
            check.expected.short, _got(check), _timing(check),
            Text(for_terminal(note), style="bold red" if not check.ok else "yellow" if note else ""),
        )
    console.print(table)
    mismatches = sum(not check.ok for check in report.submissions)
    skipped = sum(bool(check.skipped) for check in report.submissions)
    warnings = sum(bool(check.slow_warning) for check in report.submissions)
    style = "bold green" if report.ok else "bold red"
    console.print(
        f"[{style}]{'OK' if report.ok else 'FAILED'}[/]: {len(report.submissions)} submissions, "
        f"{mismatches} mismatched, {skipped} skipped, {warnings} timing warnings"
    )


def report_json(report: VerifyReport, stream: TextIO) -> None:
    document = {
        "ok": report.ok,
        "test_data": [vars(check) for check in report.data_checks],
        "submissions": [
            {
                "problem": check.problem_id,
                "path": str(check.path),
                "expected": check.expected.short,
                "got": check.got.short if check.got else None,
                "ok": check.ok,
                "skipped": check.skipped,
                "judge_failure": check.failed,
                "warning": check.slow_warning,
                "result": check.result.to_dict() if check.result else None,
            }
            for check in report.submissions
        ],
    }
    stream.write(json_document(document))
    stream.write("\n")


VerifyReporter = Callable[[VerifyReport, TextIO], None]

VERIFY_REPORTERS: dict[str, VerifyReporter] = {
    "text": report_text,
    "json": report_json,
}
"""`judge verify --format NAME`: the whole list."""
