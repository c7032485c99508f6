"""`judge doctor`: what this machine offers (toolchains, memory limiting, sandbox), as a table for a person."""

from __future__ import annotations

import click
from rich.console import Console
from rich.table import Table
from rich.text import Text

from judge.cli.exit_codes import ExitCode
from judge.doctor import examine

STATUS_STYLES = {"ok": "green", "warn": "yellow", "missing": "yellow", "none": "bold yellow"}


@click.command("doctor")
def doctor_command() -> int:
    """Show the toolchains, memory limiting and sandbox this machine offers."""
    table = Table(show_edge=False)
    for column in ("what", "status", "detail"):
        table.add_column(column, overflow="fold")
    for finding in examine():
        table.add_row(
            finding.topic, Text(finding.status, style=STATUS_STYLES.get(finding.status, "")), Text(finding.detail)
        )
    Console(width=max(110, Console().width)).print(table)
    return ExitCode.ACCEPTED
