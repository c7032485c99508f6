"""How many times a test runs before its time decides a verdict, and which run decides.

Once, almost always. Again, when the first run's wall time cannot be trusted: a wall TLE with CPU time to spare
where the containment cannot tell how long the run waited for a CPU (psutil; execute.py takes the waiting off the
wall time wherever it can measure it), so a busy machine's delay is not given as a TLE unchecked.
"""

from __future__ import annotations

from collections.abc import Sequence

from judge.runner.execute import RunStats, Tripped
from judge.runner.limits import Limits


def wants_another_run(runs: Sequence[RunStats], limits: Limits) -> bool:
    """Whether the test runs once more after `runs` (its runs so far, in order)."""
    last = runs[-1]
    return len(runs) == 1 and _untrusted_wall_limit(last, limits)


def deciding_run(runs: Sequence[RunStats], limits: Limits) -> int:
    """The index of the run whose facts give the verdict: the last one, unless an earlier one is to be trusted
    more (a later run was only a check of it)."""
    return len(runs) - 1


def _untrusted_wall_limit(stats: RunStats, limits: Limits) -> bool:
    """A wall TLE with CPU time to spare, whose waiting for a CPU no one could measure."""
    return stats.tripped is Tripped.WALL and stats.waiting_seconds is None and stats.cpu_seconds < limits.time_seconds
