"""Text: a rich table per submission, coloured verdicts, the limits that applied, the overall verdict.

Every string that came from a submission, a path or a problem goes through `for_terminal` and reaches rich as a
`Text`, never as markup. A message of several lines (an RE's stderr tail) shows its first line in the table and
the whole message below it, so the table stays one row per test and nothing is cut. Blocks of program text (the
compiler's message, a message's lines, a diff) are printed soft-wrapped: rich adds no line breaks of its own, so
each line is the program's line.
"""

from __future__ import annotations

from typing import TextIO

from rich.console import Console
from rich.table import Table
from rich.text import Text

from judge.inert import for_terminal
from judge.results import SubmissionResult
from judge.verdicts import Verdict


def verdict_text(verdict: Verdict) -> Text:
    return Text(verdict.short, style=verdict.colour)


def inert(text: str, style: str = "") -> Text:
    """Hostile text as a rich `Text`: escape sequences disarmed, markup not interpreted."""
    return Text(for_terminal(text), style=style)


def limits_line(result: SubmissionResult) -> str:
    limits = result.limits
    return (
        f"limits: CPU {limits.time_seconds:g} s, wall {limits.wall_seconds:g} s, memory {limits.memory_mib} MiB, "
        f"output {limits.output_mib} MiB\nisolation: {result.isolation} · memory: {result.memory_enforcement}"
    )


def report(result: SubmissionResult, stream: TextIO) -> None:
    console = Console(file=stream, highlight=False, soft_wrap=False, width=max(100, Console(file=stream).width))
    console.print(Text.assemble(inert(result.problem_id, "bold"), " · ", inert(result.submission), " · ",
                                inert(result.language)))
    console.print(Text(limits_line(result), style="dim"))
    if result.isolation == "none":
        console.print("warning: no sandbox; the submission ran with your user's rights (install bubblewrap)",
                      style="bold yellow")
    if result.verdict is Verdict.CE:
        console.print(inert(result.compile_message), soft_wrap=True)
    elif result.compile_message:  # warnings: shown, as on BOJ, but never a CE
        console.print(Text("compiler warnings:", style="bold yellow"))
        console.print(inert(result.compile_message), soft_wrap=True)
    if result.cases:
        table = Table(show_edge=False, pad_edge=False)
        for column, justify in (("test", "left"), ("verdict", "left"), ("CPU s", "right"), ("wall s", "right"),
                                ("peak MiB", "right"), ("message", "left")):
            table.add_column(column, justify=justify, overflow="fold")
        for case in result.cases:
            table.add_row(inert(case.name), verdict_text(case.verdict), f"{case.cpu_seconds:.3f}",
                          f"{case.wall_seconds:.3f}", f"{case.peak_mib:.1f}", inert(case.message.split("\n")[0]))
        console.print(table)
        for case in result.cases:
            if "\n" in case.message:
                console.print(Text.assemble(f"{case.verdict.short} on test ", inert(case.name), ":", style="bold"))
                console.print(inert(case.message), soft_wrap=True)
            if case.diff:
                console.print(Text.assemble("diff on sample test ", inert(case.name), ":", style="bold"))
                console.print(inert(case.diff), soft_wrap=True)
    overall = Text("result: ")
    overall.append(f"{result.verdict.short} ({result.verdict.boj_name})", style=f"bold {result.verdict.colour}")
    overall.append(f"  {result.passed}/{len(result.cases)} tests passed")
    if result.score is not None:
        overall.append(f"  score {result.score_shown}", style="bold")
    console.print(overall)
