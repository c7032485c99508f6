"""The progress bar of a batch (`judge verify`, `judge grade`), on stderr: done / total, rate, time left, and a
running count per verdict.

It is only drawn for a person watching: not with `--quiet`, and not when stderr is not a terminal (a log file or
a CI job would fill with redraws). Disabled, every method does nothing, so the session need not care.

No column renders a format string as rich markup: the verdict counts are built as `Text`, so nothing a submission
names can ever be read as markup here (the bar shows no paths).
"""

from __future__ import annotations

from collections import Counter
from types import TracebackType

from rich.console import Console
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

from judge.verdicts import Verdict


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
        return Text(" ").join(Text(f"{verdict.short} {count}", style=verdict.colour)
                              for verdict in Verdict if (count := counts[verdict]))


class BatchProgress:
    """Use as a context manager around the batch; call `advance` once per finished task. `label` starts the line,
    `unit` names what is counted (pairs, submissions)."""

    def __init__(self, total: int, *, enabled: bool, label: str = "judging", unit: str = "pairs",
                 console: Console | None = None) -> None:
        self._counts: Counter[Verdict] = Counter()
        self._progress: Progress | None = None
        if not enabled or total == 0:
            return
        self._progress = Progress(
            TextColumn(label),
            BarColumn(),
            MofNCompleteColumn(),
            _RateColumn(unit),
            TimeRemainingColumn(),
            _VerdictsColumn(),
            console=console or Console(stderr=True),
            transient=False,
        )
        self._task = self._progress.add_task(label, total=total, counts=self._counts)

    @staticmethod
    def wanted(*, quiet: bool, console: Console | None = None) -> bool:
        """Whether to draw: not asked to be quiet, and stderr is a terminal."""
        return not quiet and (console or Console(stderr=True)).is_terminal

    def __enter__(self) -> BatchProgress:
        if self._progress is not None:
            self._progress.start()
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 traceback: TracebackType | None) -> None:
        if self._progress is not None:
            self._progress.stop()

    def advance(self, verdict: Verdict) -> None:
        if self._progress is None:
            return
        self._counts[verdict] += 1
        self._progress.update(self._task, advance=1)
