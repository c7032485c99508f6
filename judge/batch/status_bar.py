"""The status bar of a batch (`judge verify`, `judge grade`), on stderr: done / total, rate, time left, a running
count per verdict, and below it the pairs running now with how long each has run (the oldest two, then "+N"),
so a slow pair is named instead of freezing the bar. That line is fitted to the terminal's width: a name is cut
(with "…") before a time is, and one pair is shown instead of two when two do not fit; a line that wrapped would
leave a copy of itself on the screen at every redraw. Time left is only estimated while pairs are waiting: once every
pair left is running, the rate of the finished ones says nothing about them.

It is only drawn for a person watching: not with `--quiet`, and not when stderr is not a terminal (a log file or
a CI job would fill with redraws). Disabled, every method does nothing, so the session need not care.

No column renders a format string as rich markup: the verdict counts are built as `Text`, so nothing a submission
names can ever be read as markup here (the bar shows no paths), and the running pairs' names are made inert
(judge.inert) before they are drawn.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Iterable, Mapping
from types import TracebackType

from msgspec import Struct
from rich.cells import cell_len
from rich.console import Console, RenderableType
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    ProgressColumn,
    Task,
    TextColumn,
    TimeRemainingColumn,
)
from rich.text import Text

from judge.batch.tasks import Pair, SubmissionTask
from judge.inert import for_terminal
from judge.verdicts import Verdict

SHOWN_RUNNING = 2
RUNNING_PREFIX = "running: "
MIN_NAME_CELLS = 8
"""Below this many cells per name, one running pair is shown instead of two."""


class _RateColumn(ProgressColumn):
    """Tasks judged per second (rich's own speed columns count bytes)."""

    def __init__(self, unit: str) -> None:
        super().__init__()
        self._unit = unit

    def render(self, task: Task) -> Text:
        speed = task.finished_speed or task.speed
        return Text(f"{speed:.2f} {self._unit}/s" if speed else f"- {self._unit}/s", style="progress.data.speed")


class _VerdictsColumn(ProgressColumn):
    """The running count per verdict, each in its verdict's colour."""

    def render(self, task: Task) -> Text:
        counts: Counter[Verdict] = task.fields["counts"]
        return Text(" ").join(
            Text(f"{verdict.short} {count}", style=verdict.colour) for verdict in Verdict if (count := counts[verdict])
        )


class _Running(Struct, frozen=True):
    """A pair being judged: since when, and what bounds it (its tests and the problem's time limit per test)."""

    label: str
    started: float
    tests: int
    time_limit: float | None

    def times(self, now: float) -> str:
        """How long it has run, against what bounds it: `1m05s (44 tests, 1 s limit each)`."""
        seconds = int(now - self.started)
        elapsed = f"{seconds // 60}m{seconds % 60:02d}s" if seconds >= 60 else f"{seconds} s"
        limit = f", {self.time_limit:g} s limit each" if self.time_limit else ""
        return f"{elapsed} ({self.tests} tests{limit})"


def running_line(running: Iterable[_Running], now: float, width: int) -> Text:
    """The pairs running now, the longest-running first, in at most `width` cells (see the module's docstring)."""
    oldest = sorted(running, key=lambda entry: entry.started)
    for shown in range(min(SHOWN_RUNNING, len(oldest)), 0, -1):
        times = [entry.times(now) for entry in oldest[:shown]]
        more = f" +{len(oldest) - shown}" if len(oldest) > shown else ""
        fixed = cell_len(RUNNING_PREFIX + more) + sum(cell_len(f" {each}") for each in times) + 2 * (shown - 1)
        room = (width - fixed) // shown
        if room >= MIN_NAME_CELLS or shown == 1:
            names = [_cut(entry.label, max(room, 1)) for entry in oldest[:shown]]
            pairs = ", ".join(f"{name} {each}" for name, each in zip(names, times, strict=True))
            return Text(f"{RUNNING_PREFIX}{pairs}{more}", style="progress.description", no_wrap=True, overflow="crop")
    return Text("")


def _cut(name: str, cells: int) -> str:
    """`name` in at most `cells` terminal cells, ending in "…" when cut (a wide character counts two)."""
    if cell_len(name) <= cells:
        return name
    text = Text(name)
    text.truncate(cells, overflow="ellipsis")
    return text.plain


class _BarAndRunning(Progress):
    """rich's bar, and under it the line of the running pairs, fitted to the console's width at every redraw."""

    def __init__(self, *columns: ProgressColumn, running: dict[Pair, _Running], console: Console) -> None:
        self._running = running  # before rich's __init__, which may draw
        super().__init__(*columns, console=console, transient=False)

    def get_renderables(self) -> Iterable[RenderableType]:
        yield self.make_tasks_table(self.tasks)
        if self._running:
            yield running_line(self._running.values(), time.monotonic(), self.console.width)


class _TimeLeftColumn(TimeRemainingColumn):
    """rich's estimate while tasks wait; blank once every task left is running (their time is not the rate's)."""

    def __init__(self, running: dict[Pair, _Running]) -> None:
        super().__init__()
        self._running = running

    def render(self, task: Task) -> Text:
        if task.remaining is not None and task.remaining <= len(self._running):
            return Text("-:--:--", style="progress.remaining")
        return super().render(task)


class StatusBar:
    """Use as a context manager around the batch; call `started` when a task goes to a worker and `advance` once
    it finished. `label` starts the line, `unit` names what is counted (pairs, submissions), `time_limits` the time
    limit per test of each problem id, shown beside its running pairs."""

    def __init__(
        self,
        total: int,
        *,
        enabled: bool,
        label: str = "judging",
        unit: str = "pairs",
        console: Console | None = None,
        time_limits: Mapping[str, float] | None = None,
    ) -> None:
        self._counts: Counter[Verdict] = Counter()
        self._running: dict[Pair, _Running] = {}
        self._time_limits = time_limits or {}
        self._display: Progress | None = None
        if not enabled or total == 0:
            return
        self._display = _BarAndRunning(
            TextColumn(label),
            BarColumn(),
            MofNCompleteColumn(),
            _RateColumn(unit),
            _TimeLeftColumn(self._running),
            _VerdictsColumn(),
            running=self._running,
            console=console or Console(stderr=True),
        )
        self._task = self._display.add_task(label, total=total, counts=self._counts)

    @staticmethod
    def wanted(*, quiet: bool, console: Console | None = None) -> bool:
        """Whether to draw: not asked to be quiet, and stderr is a terminal."""
        return not quiet and (console or Console(stderr=True)).is_terminal

    def __enter__(self) -> StatusBar:
        if self._display is not None:
            self._display.start()
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, traceback: TracebackType | None
    ) -> None:
        if self._display is not None:
            self._display.stop()

    def started(self, task: SubmissionTask) -> None:
        """`task` was handed to a worker: show it as running from now."""
        if self._display is None:
            return
        label = for_terminal(f"{task.owner}/{task.problem.problem_id}")
        self._running[task.pair] = _Running(
            label, time.monotonic(), task.problem.test_count, self._time_limits.get(task.problem.problem_id)
        )

    def advance(self, verdict: Verdict, pair: Pair | None = None) -> None:
        """One task finished with `verdict` (`pair`: which, so it no longer shows as running)."""
        if self._display is None:
            return
        if pair is not None:
            self._running.pop(pair, None)
        self._counts[verdict] += 1
        self._display.update(self._task, advance=1)
