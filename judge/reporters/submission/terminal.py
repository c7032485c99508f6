"""Text: a table per submission, coloured verdicts on a colour terminal, the limits that applied, the overall
verdict.

Every string that came from a submission, a path or a problem goes through `for_terminal` first; the only escape
sequences in the output are the styles of terminal_text.py. A message of several lines (an RE's stderr tail)
shows its first line in the table and the whole message below it, so the table stays one row per test and
nothing is cut. Blocks of program text (the compiler's message, a message's lines, a diff) are printed as they
are, without added line breaks, so each line is the program's line.
"""

from __future__ import annotations

from typing import TextIO

from judge.inert import for_terminal
from judge.reporters.terminal_text import Cell, Column, line_width, styled, table_lines, wants_colour
from judge.results import SubmissionResult
from judge.verdicts import Verdict

COLUMNS = (Column("test"), Column("verdict"), Column("CPU s", "right"), Column("wall s", "right"),
           Column("peak MiB", "right"), Column("message"))


def limits_line(result: SubmissionResult) -> str:
    limits = result.limits
    return (
        f"limits: CPU {limits.time_seconds:g} s, wall {limits.wall_seconds:g} s, memory {limits.memory_mib} MiB, "
        f"output {limits.output_mib} MiB\nisolation: {result.isolation} · memory: {result.memory_enforcement}"
    )


def report(result: SubmissionResult, stream: TextIO) -> None:
    colour = wants_colour(stream)

    def show(text: str, style: str = "") -> None:
        stream.write(styled(text, style, colour) + "\n")

    stream.write(f"{styled(for_terminal(result.problem_id), 'bold', colour)} · {for_terminal(result.submission)} · "
                 f"{for_terminal(result.language)}\n")
    show(limits_line(result), "dim")
    if result.isolation == "none":
        show("warning: no sandbox; the submission ran with your user's rights (install bubblewrap)", "bold yellow")
    if result.verdict is Verdict.CE:
        show(for_terminal(result.compile_message))
    elif result.compile_message:  # warnings: shown, as on BOJ, but never a CE
        show("compiler warnings:", "bold yellow")
        show(for_terminal(result.compile_message))
    if result.cases:
        rows = [[Cell(for_terminal(case.name)), Cell(case.verdict.short, case.verdict.colour),
                 Cell(f"{case.cpu_seconds:.3f}"), Cell(f"{case.wall_seconds:.3f}"), Cell(f"{case.peak_mib:.1f}"),
                 Cell(for_terminal(case.message.split("\n")[0]))] for case in result.cases]
        for line in table_lines(COLUMNS, rows, line_width(stream), colour):
            stream.write(line + "\n")
        for case in result.cases:
            if "\n" in case.message:
                show(f"{case.verdict.short} on test {for_terminal(case.name)}:", "bold")
                show(for_terminal(case.message))
            if case.diff:
                show(f"diff on sample test {for_terminal(case.name)}:", "bold")
                show(for_terminal(case.diff))
    verdict = styled(f"{result.verdict.short} ({result.verdict.boj_name})", f"bold {result.verdict.colour}", colour)
    stream.write(f"result: {verdict}  {result.passed}/{len(result.cases)} tests passed\n")
