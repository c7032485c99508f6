"""How many judgings may be started now: `-j` fresh ones, and, in `judge serve`'s local pool, spare slots that
only the judgings gone slow make room for.

With `-j 2` and two endless loops judging, a pool of two processes has nothing left for a fresh submission until
one loop ends (up to three runs to 5.5 s of CPU each for Python), whatever the queue's order. So `judge serve`
gives its pool `spare` more processes. A judging counts against `-j` for its first `slow_after` seconds; past that
it is slow and stops counting: a fresh submission may start beside it, in a spare process, up to `workers + spare`
in all. The slow one and the fresh one then share the cores, and the slow one gives way: from `slow_after` into
its judging on, its programs run at a lower CPU priority (runner/containment/priority.py), so the fresh one gets
most of a core they share (`RunOptions.give_way_after`).

Why verdicts do not change: a program's CPU time counts only while it runs, and the wall backstop leaves out the
time it waited for a CPU (runner/containment/waiting.py); a verdict near its limit is measured again and the least
CPU time decides (judging/measuring.py). At most twice `-j` programs share the cores, so a fresh run waits at most about
as long as it runs, far from runner/execute.py's WAITING_CEILING (4 x its wall limit), past which waiting counts.
What it costs: while the cores are oversubscribed a run's CPU time reads a little higher (the caches, the SMT
sibling), and a judging started while every core is held is not pinned (judging/pinning.py). A slow run given way
waits longer in wall time: priority.py shows why that stays under the ceiling.
"""

from __future__ import annotations

from collections.abc import Collection

from msgspec import Struct

SLOW_AFTER_SECONDS = 1.0
"""A judging that has gone on this long is slow: a lab's correct submission on a small problem is judged in well
under a second on a quiet machine, an endless loop takes a Python time limit (5 s) per run. (2 s was measured too:
a fresh submission that came just after two slow ones waited that much longer.)"""


class Lanes(Struct, frozen=True):
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
