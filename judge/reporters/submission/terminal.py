"""Text: the header with the limits at once, a row per test as it finishes, then the details and the verdict.

`TextView` is a `CaseListener`: `judge run` hands it to the judging, so a student sees the limits before compiling
and each test's row the moment it ends (in a terminal a spinner names the test running; piped, plain lines only).
`report` replays a finished result through the same view, so both ways print the same text.

Every string that came from a submission, a path or a problem goes through `for_terminal` and reaches rich as a
`Text`, never as markup. A message of several lines (an RE's stderr tail) shows its first line in its row and the
whole message below the rows, so each test stays one line and nothing is cut. Blocks of program text (the
compiler's message, a message's lines, a diff) are printed soft-wrapped: each line is the program's line.
"""

from __future__ import annotations

from typing import TextIO

from rich.console import Console
from rich.status import Status
from rich.text import Text

from judge.feedback import shown_case
from judge.inert import for_terminal
from judge.results import CaseResult, SubmissionHeader, SubmissionResult, overall_verdict
from judge.verdicts import Verdict

VERDICT_WIDTH = 7


def verdict_text(verdict: Verdict) -> Text:
    return Text(verdict.short, style=verdict.colour)


def inert(text: str, style: str = "") -> Text:
    """Hostile text as a rich `Text`: escape sequences disarmed, markup not interpreted."""
    return Text(for_terminal(text), style=style)


def limits_line(header: SubmissionHeader) -> str:
    limits = header.limits
    how = f"\n        = {header.limits_note} (BOJ's language allowance)" if header.limits_note else ""
    return (
        f"limits: CPU {limits.time_seconds:g} s, wall {limits.wall_seconds:g} s, memory {limits.memory_mib} MiB, "
        f"output {limits.output_mib} MiB{how}\nisolation: {header.isolation} · memory: {header.memory_enforcement}"
    )


class TextView:
    """The text report, printed as the judging goes. `feedback` names the policy (judge/feedback.py) applied to
    each row; `live` adds a spinner naming the running test (only where the stream is a terminal)."""

    def __init__(self, stream: TextIO, *, feedback: str = "full", live: bool = False) -> None:
        self._console = Console(file=stream, highlight=False, soft_wrap=True)
        self._feedback = feedback
        self._status: Status | None = Status("", console=self._console) if live else None
        self._tests: tuple[str, ...] = ()
        self._cases: list[CaseResult] = []
        self._name_width = 4
        self._table_started = False

    def started(self, header: SubmissionHeader) -> None:
        self._tests = header.tests
        self._name_width = max([4, *(len(for_terminal(name)) for name in header.tests)])
        console = self._console
        console.print(Text.assemble(inert(header.problem_id, "bold"), " · ", inert(header.submission), " · ",
                                    inert(header.language)))
        console.print(Text(limits_line(header), style="dim"))
        if header.isolation == "none":
            console.print("warning: no sandbox; the submission ran with your user's rights (install bubblewrap)",
                          style="bold yellow")
        self._spin("compiling")

    def compiled(self, warnings: str) -> None:
        if warnings:  # shown, as on BOJ, but never a CE
            self._console.print(Text("compiler warnings:", style="bold yellow"))
            self._console.print(inert(warnings))
        self._spin_next()

    def judged(self, case: CaseResult) -> None:
        case = shown_case(case, self._feedback)
        if not self._table_started:
            self._table_started = True
            self._console.print(Text(f"{'test':<{self._name_width}}  {'verdict':<{VERDICT_WIDTH}}  {'CPU s':>7}  "
                                     f"{'wall s':>7}  {'peak MiB':>8}  message", style="bold"))
        self._cases.append(case)
        row = Text(f"{for_terminal(case.name):<{self._name_width}}  ")
        row.append(f"{case.verdict.short:<{VERDICT_WIDTH}}", style=case.verdict.colour)
        row.append(f"  {case.cpu_seconds:>7.3f}  {case.wall_seconds:>7.3f}  {case.peak_mib:>8.1f}  ")
        row.append(inert(case.message.split("\n")[0]))
        self._console.print(row)
        self._spin_next()

    def finish(self, result: SubmissionResult) -> None:
        """The details below the rows, the hints, and the overall verdict."""
        self._stop()
        console = self._console
        if result.verdict is Verdict.CE:
            console.print(inert(result.compile_message))
        self._details()
        for hint in result.hints:
            console.print(inert(hint), style="yellow")
        overall = Text("result: ")
        overall.append(f"{result.verdict.short} ({result.verdict.boj_name})", style=f"bold {result.verdict.colour}")
        if result.verdict is not Verdict.CE:  # no test ran: a count would read as "0 of 0 passed"
            overall.append(f"  {result.passed}/{len(result.cases)} tests passed")
        if result.score is not None:
            overall.append(f"  score {result.score_shown}", style="bold")
        console.print(overall)

    def interrupted(self) -> None:
        """Ctrl-C: the details of what was judged, and the verdict so far, marked as partial."""
        self._stop()
        self._details()
        passed = sum(case.verdict is Verdict.AC for case in self._cases)
        verdict = overall_verdict(self._cases)
        overall = Text("result so far: ")
        if self._cases:
            overall.append(f"{verdict.short} ({verdict.boj_name})", style=f"bold {verdict.colour}")
            overall.append(f"  {passed}/{len(self._cases)} tests passed")
        else:
            overall.append("none", style="bold")
        overall.append(f" (partial: interrupted after {len(self._cases)} of {len(self._tests)} tests)")
        self._console.print(overall)

    def _details(self) -> None:
        for case in self._cases:
            if "\n" in case.message:
                self._console.print(Text.assemble(f"{case.verdict.short} on test ", inert(case.name), ":",
                                                  style="bold"))
                self._console.print(inert(case.message))
            if case.diff:
                kind = "sample test" if case.is_sample else "test"
                self._console.print(Text.assemble(f"diff on {kind} ", inert(case.name), ":", style="bold"))
                self._console.print(inert(case.diff))

    def _spin(self, what: str) -> None:
        if self._status is not None:
            self._status.update(Text(what, style="dim"))
            self._status.start()

    def _spin_next(self) -> None:
        done = len(self._cases)
        if done < len(self._tests):
            self._spin(f"running test {for_terminal(self._tests[done])} ({done + 1} of {len(self._tests)})")

    def _stop(self) -> None:
        if self._status is not None:
            self._status.stop()


def report(result: SubmissionResult, stream: TextIO) -> None:
    """The finished result, printed as `judge run` prints it live."""
    view = TextView(stream)
    view.started(result.header())
    if result.verdict is not Verdict.CE:
        view.compiled(result.compile_message)
        for case in result.cases:
            view.judged(case)
    view.finish(result)
