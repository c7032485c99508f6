"""Text for a person: where the inputs came from, then the smallest failing input with the expected and the
actual output, or that nothing failed within the budget. What the submission printed is made inert."""

from __future__ import annotations

from typing import TextIO

from judge.inert import for_terminal
from judge.stress import StressReport
from judge.verdicts import Verdict

SHOWN_LINES = 30


def report(result: StressReport, stream: TextIO) -> None:
    for line in _lines(result):
        stream.write(for_terminal(line) + "\n")


def _lines(result: StressReport) -> list[str]:
    how = "Hypothesis, shrunk" if result.shrinks else "random seeds, not shrunk (the problem has no strategy.py)"
    lines = [f"{result.problem_id} · {result.submission} · reference {result.reference}",
             f"inputs: {result.inputs_from} ({how}) · " + _repeat(result)]
    failure = result.failure
    if failure is None:
        stop = "budget spent" if result.budget_spent else "examples done"
        return [*lines, f"no failing input: {result.judged} inputs judged in {result.seconds} s ({stop})"]
    if not failure.input and failure.verdict is Verdict.CE:
        return [*lines, "verdict: CE: the submission does not compile", result.compile_message]
    lines += [f"found {failure.verdict.short} ({result.size}) after {result.judged} inputs judged in "
              f"{result.seconds} s", "input:", *_text(failure.input)]
    if failure.actual or failure.verdict in (Verdict.WA, Verdict.PE):
        lines += ["expected output (the reference's):", *_text(failure.expected), "actual output:",
                  *_text(failure.actual)]
    lines += [f"verdict: {failure.verdict.short}" + (f": {failure.message}" if failure.message else ""),
              f"repeat with: --seed {result.seed}" if result.seed is not None else "saved in the --database folder"]
    return lines


def _repeat(result: StressReport) -> str:
    return f"seed {result.seed}" if result.seed is not None else "unseeded, examples kept in the --database folder"


def _text(data: bytes) -> list[str]:
    lines = data.decode("utf-8", errors="surrogateescape").splitlines() or ["(nothing)"]
    more = len(lines) - SHOWN_LINES
    return [f"  {line}" for line in lines[:SHOWN_LINES]] + ([f"  ... {more} more lines"] if more > 0 else [])
