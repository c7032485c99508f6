"""How many judgings may be started now: `-j` at full speed, and, in `judge serve`'s local pool, spare slots that
only the judgings gone slow make room for.

With `-j 2` and two endless loops judging, a pool of two processes has nothing left for a fresh submission until
one loop ends (up to three runs to 5.5 s of CPU each for Python), whatever the queue's order. So `judge serve`
gives its pool `spare` more processes. A judging still counts against `-j` for its first `slow_after` seconds; past
that it is slow, and it stops counting: a fresh submission may start beside it, in a spare process, up to
`workers + spare` in all. The slow one then yields the CPU: its processes are reniced (local.py), so the fresh
one runs near full speed and the slow one takes what is left.

Why it stays fair: a program's CPU time is counted only while it runs, and the wall backstop does not count the
time it waited for a CPU (runner/containment/waiting.py), so waiting changes neither verdict; a verdict near its
limit is measured again and the least CPU time decides (judging/measuring.py). What it costs: a slow judging
shares a core while a fresh one runs beside it (the caches, the SMT sibling), so its CPU times may read a little
higher, and it is not pinned to a core of its own once every core is held (judging/pinning.py).
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass

SLOW_AFTER_SECONDS = 2.0
"""A judging that has gone on this long is slow: a lab's correct submission on a small problem is judged in under
one second, an endless loop takes a Python time limit (5 s) per run."""


@dataclass(frozen=True)
class Lanes:
    """`workers` judgings at full speed (`-j`), and `spare` more processes for those past `slow_after` seconds."""

    workers: int
    spare: int = 0
    slow_after: float = SLOW_AFTER_SECONDS

    @property
    def processes(self) -> int:
        return self.workers + self.spare

    def free(self, started: Collection[float], now: float) -> int:
        """How many judgings may start at `now`, with the ones in flight started at `started` (monotonic
        seconds): as many as the fresh ones leave of `workers`, within `workers + spare` in all."""
        fresh = sum(now - moment < self.slow_after for moment in started)
        return max(0, min(self.workers - fresh, self.processes - len(started)))
