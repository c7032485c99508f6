"""The time a stress run may spend, and what it tells its caller after each trial (a judged input)."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

from judge.verdicts import Verdict

OnTrial = Callable[[int, float, str, Verdict], None]
"""Told after each trial (one input judged): how many were judged, seconds so far, the input's size, its verdict."""


@dataclass(frozen=True)
class Clock:
    """Started when the search starts; `spent` once `budget` seconds have passed."""

    start: float
    budget: float

    @classmethod
    def started(cls, budget: float) -> Clock:
        return cls(time.monotonic(), budget)

    def elapsed(self) -> float:
        return time.monotonic() - self.start

    def spent(self) -> bool:
        return self.elapsed() >= self.budget
