"""`judge doctor`: what this machine offers (toolchains, memory limiting, sandbox), as a table for a person."""

from __future__ import annotations

import click
from rich.console import Console
from rich.table import Table
from rich.text import Text

from judge.cli.exit_codes import ExitCode
from judge.doctor.machine import examine
from judge.doctor.timing import fit_for_official_grading, timing_findings

STATUS_STYLES = {"ok": "green", "warn": "yellow", "missing": "yellow", "none": "bold yellow", "note": "cyan"}


@click.command("doctor")
def doctor_command() -> int:
    """Show the toolchains, memory limiting, sandbox and timing conditions this machine offers; exit 1 when its
    timing conditions make it unfit for official grading."""
    table = Table(show_edge=False)
    for column in ("what", "status", "detail"):
        table.add_column(column, overflow="fold")
    timing = timing_findings()
    for finding in [*examine(), *timing]:
        table.add_row(
            finding.topic, Text(finding.status, style=STATUS_STYLES.get(finding.status, "")), Text(finding.detail)
        )
    console = Console(width=max(110, Console().width))
    console.print(table)
    if fit_for_official_grading(timing):
        console.print("timing: fit for official grading")
        return ExitCode.ACCEPTED
    console.print("timing: not fit for official grading (fix each warn above; exit status 1)")
    return ExitCode.REJECTED
