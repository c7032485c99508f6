"""The terminal's lines for `judge grade --stress`, after the progress bar, so a teacher sees what the search
found without opening report.html: a line per pair whose search found something (`stress: lee/9663: WA at N=2
("2"), from test 02`), a line per problem that cannot be searched, said once however many students it has, and
one line counting the pairs searched in which nothing was found. Every line is inert text: a student names the
pair, and a found input is whatever a strategy or generator wrote."""

from __future__ import annotations

from collections.abc import Callable

from judge.batch.tasks import Pair
from judge.inert import for_terminal
from judge.stress import StressReport

INPUT_WIDTH = 40
"""Characters of a found input's first line shown in its line; the page in report.html shows all of it."""


class StressLines:
    """Writes each line through `echo` as the search goes; `finish()` adds the count of the pairs that found
    nothing. Implements grading's StressListener."""

    def __init__(self, echo: Callable[[str], None]) -> None:
        self._echo = echo
        self._nothing_found = 0
        self._told = 0

    def searched(self, pair: Pair, found: StressReport | str) -> None:
        self._told += 1
        if isinstance(found, str):
            outcome = " ".join(found.split())
        elif found.failure is None:
            self._nothing_found += 1
            return
        else:
            outcome = _finding(found, found.failure.verdict.short, found.failure.input)
        student, problem_id = pair
        self._echo(for_terminal(f"stress: {student}/{problem_id}: {outcome}"))

    def unsearchable(self, problem_id: str, reason: str, pairs: int) -> None:
        self._told += 1
        wrong = f"{pairs} WA pair{'s' if pairs != 1 else ''} not searched"
        self._echo(for_terminal(f"stress: {problem_id} ({wrong}): {' '.join(reason.split())}"))

    def finish(self) -> None:
        if self._nothing_found:
            pairs = f"{self._nothing_found} pair{'s' if self._nothing_found != 1 else ''}"
            self._echo(f"stress: {pairs} searched, nothing found")
        elif not self._told:
            self._echo("stress: no WA pair to search")


def _finding(found: StressReport, verdict: str, given: bytes) -> str:
    """`WA at N=2 ("2"), from test 02`: the verdict, the input's size and first line, where it came from."""
    origin = (
        f", from test {found.from_test}" + (", made smaller" if found.simplified else "")
        if found.from_test
        else f", seed {found.seed}"
    )
    if not found.size:  # nothing was run: the submission does not compile
        return verdict
    return f"{verdict} at {found.size} ({_first_line(given)}){origin}"


def _first_line(data: bytes) -> str:
    """The input's first line in quotes, cut to INPUT_WIDTH characters, `…` for the rest of the input."""
    lines = data.decode("utf-8", errors="surrogateescape").splitlines() or [""]
    first = lines[0]
    shown = f'"{first[:INPUT_WIDTH]}"'
    return shown + " …" if len(first) > INPUT_WIDTH or len(lines) > 1 else shown
