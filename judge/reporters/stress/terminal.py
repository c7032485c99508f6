"""Text for a person: where the inputs came from, then the smallest failing input with the expected and the
actual output, or that nothing failed within the budget. What the submission printed is made inert."""

from __future__ import annotations

from typing import TextIO

from judge.inert import for_terminal
from judge.reporters.terminal_text import counted
from judge.stress import StressReport
from judge.verdicts import Verdict

SHOWN_LINES = 30


def report(result: StressReport, stream: TextIO) -> None:
    for line in _lines(result):
        stream.write(for_terminal(line) + "\n")


def _lines(result: StressReport) -> list[str]:
    how = "Hypothesis, shrunk" if result.shrinks else "random seeds, not shrunk: the problem has no strategy.py"
    lines = [
        f"{result.problem_id} · {result.submission} · reference {result.reference}",
        f"inputs: the problem's tests, smallest first, then {result.inputs_from} ({how}) · " + _repeat(result),
    ]
    failure = result.failure
    if failure is None:
        stop = "budget spent" if result.budget_spent else "examples done"
        return [*lines, f"no failing input: {counted(result.judged, 'input')} judged in {result.seconds} s ({stop})"]
    if not failure.input and failure.verdict is Verdict.CE:
        return [*lines, "verdict: CE: the submission does not compile", result.compile_message]
    lines += [
        f"found {failure.verdict.short} ({result.size}) after {counted(result.judged, 'input')} judged "
        f"in {result.seconds} s",
        *_origin(result),
        "input:",
        *_text(failure.input),
    ]
    if failure.actual or failure.verdict in (Verdict.WA, Verdict.PE):
        answer = "the test's answer" if result.from_test and not result.simplified else "the reference's"
        lines += [f"expected output ({answer}):", *_text(failure.expected), "actual output:", *_text(failure.actual)]
    lines += [
        f"verdict: {failure.verdict.short}" + (f": {failure.message}" if failure.message else ""),
        f"repeat with: --seed {result.seed}" if result.seed is not None else "saved in the --database folder",
    ]
    return lines


def _origin(result: StressReport) -> list[str]:
    """Which bundled test the input came from, and whether it was simplified; nothing for a random find."""
    if not result.from_test:
        return []
    test = f"from test {result.from_test} ({result.from_test_size}), which fails"
    if not result.simplified:
        return [
            f"{test}; nothing smaller that simplify() offered fails the same way"
            if result.simplifies
            else f"{test}; not made smaller (simplify() in a strategy.py is what makes a failing test smaller)"
        ]
    return [f"{test}, simplified"]


def _repeat(result: StressReport) -> str:
    return f"seed {result.seed}" if result.seed is not None else "unseeded, examples kept in the --database folder"


def _text(data: bytes) -> list[str]:
    lines = data.decode("utf-8", errors="surrogateescape").splitlines() or ["(nothing)"]
    more = len(lines) - SHOWN_LINES
    return [f"  {line}" for line in lines[:SHOWN_LINES]] + ([f"  ... {more} more lines"] if more > 0 else [])
