"""Text: a rich table per submission, coloured verdicts, the limits that applied, the overall verdict."""

from __future__ import annotations

from typing import TextIO

from rich.console import Console
from rich.table import Table
from rich.text import Text

from judge.results import SubmissionResult
from judge.verdicts import Verdict


def verdict_text(verdict: Verdict) -> Text:
    return Text(verdict.short, style=verdict.colour)


def limits_line(result: SubmissionResult) -> str:
    limits = result.limits
    return (
        f"limits: CPU {limits.time_seconds:g} s, wall {limits.wall_seconds:g} s, memory {limits.memory_mib} MiB, "
        f"output {limits.output_mib} MiB\nisolation: {result.isolation} · memory: {result.memory_enforcement}"
    )


def report(result: SubmissionResult, stream: TextIO) -> None:
    console = Console(file=stream, highlight=False, soft_wrap=False, width=max(100, Console(file=stream).width))
    console.print(f"[bold]{result.problem_id}[/] · {result.submission} · {result.language}")
    console.print(limits_line(result), style="dim")
    if result.isolation == "none":
        console.print("warning: no sandbox; the submission ran with your user's rights (install bubblewrap)",
                      style="bold yellow")
    if result.verdict is Verdict.CE:
        console.print(result.compile_message, markup=False)
    if result.cases:
        table = Table(show_edge=False, pad_edge=False)
        for column, justify in (("test", "left"), ("verdict", "left"), ("CPU s", "right"), ("wall s", "right"),
                                ("peak MiB", "right"), ("message", "left")):
            table.add_column(column, justify=justify, overflow="fold")
        for case in result.cases:
            table.add_row(case.name, verdict_text(case.verdict), f"{case.cpu_seconds:.3f}",
                          f"{case.wall_seconds:.3f}", f"{case.peak_mib:.1f}", Text(case.message))
        console.print(table)
        for case in result.cases:
            if case.diff:
                console.print(f"diff on sample test {case.name}:", style="bold")
                console.print(Text(case.diff))
    overall = Text("result: ")
    overall.append(f"{result.verdict.short} ({result.verdict.boj_name})", style=f"bold {result.verdict.colour}")
    overall.append(f"  {result.passed}/{len(result.cases)} tests passed")
    console.print(overall)
