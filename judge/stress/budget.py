"""The time a stress run may spend, and what it tells its caller after each trial (a judged input).

The bounds `judge stress` uses by default are here, so every caller of the search (the command, `judge serve`'s
counterexamples) bounds it alike."""

from __future__ import annotations

import time
from collections.abc import Callable

from msgspec import Struct

from judge.verdicts import Verdict

DEFAULT_BUDGET_SECONDS = 60.0
"""Seconds a search may take (`judge stress --budget`)."""
DEFAULT_MAX_EXAMPLES = 200
"""Inputs a search may try before shrinking (`judge stress --max-examples`)."""

OnTrial = Callable[[int, float, str, Verdict], None]
"""Told after each trial (one input judged): how many were judged, seconds so far, the input's size, its verdict."""


class Clock(Struct, frozen=True):
    """Started when the search starts; `spent` once `budget` seconds have passed, or as soon as `stop` says so
    (`judge serve` stops a search whose claim was taken back, to give its worker to a submission)."""

    start: float
    budget: float
    stop: Callable[[], bool] | None = None

    @classmethod
    def started(cls, budget: float, stop: Callable[[], bool] | None = None) -> Clock:
        return cls(time.monotonic(), budget, stop)

    def elapsed(self) -> float:
        return time.monotonic() - self.start

    def spent(self) -> bool:
        return self.elapsed() >= self.budget or (self.stop is not None and self.stop())
