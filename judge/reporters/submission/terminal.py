"""Text: the header with the limits at once, a row per test as it finishes, then the details and the verdict.

`TextView` is a `CaseListener`: `judge run` hands it to the judging, so a student sees the limits before compiling
and each test's row the moment it ends (in a terminal a status line names the test running and counts its
seconds against the limits, redrawn by a ticker thread; piped, plain lines only). The hidden-test notice is said
in full on the first row that has it, and as "hidden test" after. `report` replays a finished result through the
same view, so both ways print the same text.

Drawn with terminal_text.py, without rich (about 35 ms of every `judge run`). Every string that came from a
submission, a path or a problem goes through `for_terminal` first; the only escape sequences in the output are
terminal_text.py's styles and the status line's erasing. A message of several lines (an RE's stderr tail) shows
its first line in its row and the whole message below the rows, so each test stays one line and nothing is cut.
Blocks of program text (the compiler's message, a message's lines, a diff) are printed as they are: each line is
the program's line.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import TextIO

from judge.inert import for_terminal
from judge.judging.feedback import HIDDEN_NOTICE, Shown, shown, shown_case
from judge.judging.results import CaseResult, SubmissionHeader, SubmissionResult, overall_verdict
from judge.reporters.terminal_text import (
    Cell,
    Column,
    cut_to_width,
    display_width,
    row_line,
    styled,
    terminal_columns,
    wants_colour,
)
from judge.verdicts import Verdict

COLUMNS = (
    Column("test"),
    Column("verdict"),
    Column("CPU s", "right"),
    Column("wall s", "right"),
    Column("peak MiB", "right"),
    Column("message"),
)
FIXED_WIDTHS = (7, 7, 7, 8, 0)
"""The widths of every column but the test name's (known before the first row, so rows print as they come)."""
ERASE_LINE = "\r\x1b[K"
TICK_SECONDS = 0.5
HIDDEN_SHORT = "hidden test"


def limits_line(header: SubmissionHeader) -> str:
    limits = header.limits
    how = f"\n        = {header.limits_note} (BOJ's language allowance)" if header.limits_note else ""
    return (
        f"limits: CPU {limits.time_seconds:g} s, wall {limits.wall_seconds:g} s, memory {limits.memory_mib} MiB, "
        f"output {limits.output_mib} MiB{how}\nisolation: {header.isolation} · memory: {header.memory_enforcement}"
    )


class TextView:
    """The text report, printed as the judging goes. `feedback` names the policy (judging/feedback.py) applied to
    each row and to the result's own lines; `live` adds a status line naming the running test (only where the
    stream is a terminal), erased before anything else is printed."""

    def __init__(self, stream: TextIO, *, feedback: str, live: bool = False) -> None:
        self._stream = stream
        self._colour = wants_colour(stream)
        self._feedback = feedback
        self._live = live
        self._status_shown = False
        self._tests: tuple[str, ...] = ()
        self._cases: list[CaseResult] = []
        self._widths = (4, *FIXED_WIDTHS)
        self._table_started = False
        self._hidden_said = False
        self._limits = ""
        self._lock = threading.Lock()  # the ticker and the judging thread both write the stream
        self._ticker: _Ticker | None = None

    def started(self, header: SubmissionHeader) -> None:
        self._tests = header.tests
        self._limits = f"limit {header.limits.time_seconds:g} s CPU, {header.limits.wall_seconds:g} s wall"
        self._widths = (max([4, *(display_width(for_terminal(name)) for name in header.tests)]), *FIXED_WIDTHS)
        self._print(
            f"{styled(for_terminal(header.problem_id), 'bold', self._colour)} · "
            f"{for_terminal(header.submission)} · {for_terminal(header.language)}"
        )
        self._print(limits_line(header), "dim")
        if header.isolation == "none":
            self._print(
                "warning: no sandbox; the submission ran with your user's rights (install bubblewrap)", "bold yellow"
            )
        self._status("compiling")

    def compiled(self, warnings: str) -> None:
        if warnings:  # shown, as on BOJ, but never a CE
            self._print("compiler warnings:", "bold yellow")
            self._print(for_terminal(warnings))
        self._status_next()

    def judged(self, case: CaseResult) -> None:
        case = shown_case(case, self._feedback)
        if not self._table_started:
            self._table_started = True
            self._print(
                row_line(COLUMNS, self._widths, [Cell(column.title, "bold") for column in COLUMNS], self._colour)
            )
        self._cases.append(case)
        message = case.message.split("\n")[0]
        if message == HIDDEN_NOTICE:
            message, self._hidden_said = (HIDDEN_SHORT if self._hidden_said else message), True
        message = "; ".join(filter(None, [message, case.timing_note]))
        cells = [
            Cell(for_terminal(case.name)),
            Cell(case.verdict.short, case.verdict.colour),
            Cell(f"{case.cpu_seconds:.3f}"),
            Cell(f"{case.wall_seconds:.3f}"),
            Cell(f"{case.peak_mib:.1f}"),
            Cell(for_terminal(message)),
        ]
        self._print(row_line(COLUMNS, self._widths, cells, self._colour))
        self._status_next()

    def finish(self, result: SubmissionResult) -> None:
        """The details below the rows, the hints, and the overall verdict."""
        result = shown(result, self._feedback).result
        if result.verdict is Verdict.CE:
            self._print(for_terminal(result.compile_message))
        self._details()
        for hint in result.hints:
            self._print(for_terminal(hint), "yellow")
        overall = f"result: {self._verdict(result.verdict)}"
        if result.verdict is not Verdict.CE:  # no test ran: a count would read as "0 of 0 passed"
            overall += "  " + _count(result.passed, len(result.cases), len(self._tests))
        if result.score is not None:
            overall += "  " + styled(f"score {result.score_shown}", "bold", self._colour)
        self._print(overall)

    def interrupted(self) -> None:
        """Ctrl-C: the details of what was judged, and the verdict so far, marked as partial."""
        self._details()
        passed = sum(case.verdict is Verdict.AC for case in self._cases)
        if self._cases:
            so_far = f"{self._verdict(overall_verdict(self._cases))}  {passed}/{len(self._cases)} tests passed"
        else:
            so_far = styled("none", "bold", self._colour)
        self._print(
            f"result so far: {so_far} (partial: interrupted after {len(self._cases)} of {len(self._tests)} tests)"
        )

    def _verdict(self, verdict: Verdict) -> str:
        return styled(f"{verdict.short} ({verdict.boj_name})", f"bold {verdict.colour}", self._colour)

    def _details(self) -> None:
        for case in self._cases:
            if "\n" in case.message:
                self._print(f"{case.verdict.short} on test {for_terminal(case.name)}:", "bold")
                self._print(for_terminal(case.message))
            if case.diff:
                kind = "sample test" if case.is_sample else "test"
                self._print(f"diff on {kind} {for_terminal(case.name)}:", "bold")
                self._print(for_terminal(case.diff))

    def _print(self, text: str, style: str = "") -> None:
        """One block of lines (already inert), after erasing the status line."""
        self._stop_ticker()
        with self._lock:
            self._erase_status()
            self._stream.write(styled(text, style, self._colour) + "\n")
            self._stream.flush()

    def _status(self, what: str) -> None:
        """`what` (inert) on the status line, without a line break: the next print erases it."""
        if not self._live:
            return
        with self._lock:
            self._erase_status()
            self._stream.write(styled(cut_to_width(what, terminal_columns(self._stream) - 1), "dim", self._colour))
            self._stream.flush()
            self._status_shown = True

    def _status_next(self) -> None:
        """The status line for the next test, redrawn every TICK_SECONDS with its seconds so far."""
        self._stop_ticker()
        done = len(self._cases)
        if done >= len(self._tests):
            with self._lock:
                self._erase_status()
            return
        running = f"running test {for_terminal(self._tests[done])} ({done + 1} of {len(self._tests)})"
        started = time.monotonic()
        self._status(running)
        if self._live:
            self._ticker = _Ticker(
                lambda: self._status(f"{running}: {time.monotonic() - started:.1f} s, {self._limits}")
            )

    def _stop_ticker(self) -> None:
        if self._ticker is not None:
            self._ticker.stop()
            self._ticker = None

    def _erase_status(self) -> None:
        """Erase the status line; the caller holds the lock."""
        if self._status_shown:
            self._stream.write(ERASE_LINE)
            self._status_shown = False


class _Ticker:
    """Calls `tick` every TICK_SECONDS on a daemon thread until stopped (a test's status line counting up)."""

    def __init__(self, tick: Callable[[], None]) -> None:
        self._stopped = threading.Event()
        self._thread = threading.Thread(target=self._run, args=(tick,), name="judge-status", daemon=True)
        self._thread.start()

    def _run(self, tick: Callable[[], None]) -> None:
        while not self._stopped.wait(TICK_SECONDS):
            tick()

    def stop(self) -> None:
        self._stopped.set()
        self._thread.join()


def _count(passed: int, judged: int, tests: int) -> str:
    """How many tests passed; where --fail-fast stopped, out of all the tests (`12/13 tests passed` read as if
    the problem had 13 tests)."""
    if judged < tests:
        return f"stopped at test {judged} of {tests}: {passed} passed, {tests - judged} not run"
    return f"{passed}/{judged} tests passed"


def report(seen: Shown, stream: TextIO) -> None:
    """The finished result, printed as `judge run` prints it live."""
    result = seen.result
    view = TextView(stream, feedback=seen.policy)
    view.started(result.header())
    if result.verdict is not Verdict.CE:
        view.compiled(result.compile_message)
        for case in result.cases:
            view.judged(case)
    view.finish(result)
