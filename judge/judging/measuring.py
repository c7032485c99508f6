"""How many times a test runs before its time decides a verdict, and which run decides.

Once, almost always. Again in two cases, and never otherwise (nor an interactive problem's test, whose submission
and validator run together once):

- A wall TLE with CPU time to spare where the containment cannot tell how long the run waited for a CPU (psutil;
  execute.py takes the waiting off the wall time wherever it can measure it): run once more, so a busy machine's
  delay is not given as a TLE unchecked.
- Near the limit: a run whose CPU time lies over the limit but within the band around it (NEAR_LIMIT_FLOOR of the
  limit, or the spread the test's own runs showed on this host, if wider) is run again, up to MOST_EXTRA_RUNS
  times, and the least CPU time decides: noise (another program's cache, a busy core's sibling) only adds time.
  So that a run over the limit can be told near from far, a run is stopped at the limit plus the band, not at the
  limit (the verdict still compares with the limit): a TLE costs that much longer. A run under the limit within
  the band is marked near but not run again: no later run could change its verdict.
"""

from __future__ import annotations

from collections.abc import Sequence

import msgspec.structs
from msgspec import Struct

from judge.runner.execute import RunStats, Tripped
from judge.runner.limits import Limits

NEAR_LIMIT_FLOOR = 0.10
"""The narrowest band around a limit, as a fraction of it. A quiet machine's run-to-run spread is 1-3 %, but on a
busy one CPU time itself drifts 7-10 % between moments (docs/testing.md, the timing stability benchmark): within
10 % of the limit a verdict may flip, so every verdict there is marked, and one over the limit measured again."""
BAND_CEILING = 0.25
"""The widest: past this the runs disagree too much for another run to settle anything."""
MOST_EXTRA_RUNS = 2


class Measured(Struct, frozen=True):
    """What a test's runs came to: the run whose facts give the verdict, and the band when it was near the limit."""

    decides: int
    near_limit_band: float | None


def band(runs: Sequence[RunStats]) -> float:
    """The band around the limit, as a fraction of it: the floor, or the spread of the CPU times measured so far."""
    times = [run.cpu_seconds for run in _trusted(runs)]
    spread = (max(times) - min(times)) / min(times) if len(times) > 1 and min(times) > 0 else 0.0
    return min(BAND_CEILING, max(NEAR_LIMIT_FLOOR, spread))


def stopping_limits(limits: Limits, runs: Sequence[RunStats]) -> Limits:
    """The limits the next run is stopped at: the CPU limit plus the band, so that how far over it went is known."""
    return msgspec.structs.replace(limits, time_seconds=limits.time_seconds * (1 + band(runs)))


def wants_another_run(runs: Sequence[RunStats], limits: Limits) -> bool:
    """Whether the test runs once more after `runs` (its runs so far, in order)."""
    if len(runs) == 1 and _untrusted_wall_limit(runs[0], limits):
        return True
    trusted = _trusted(runs)
    if not trusted or len(trusted) > MOST_EXTRA_RUNS:
        return False
    least = min(trusted, key=lambda run: run.cpu_seconds)
    return _timed(least) and limits.time_seconds < least.cpu_seconds <= limits.time_seconds * (1 + band(runs))


def measured(runs: Sequence[RunStats], limits: Limits) -> Measured:
    """Which of `runs` decides (the least CPU time among the trusted ones), and the band if it was near."""
    trusted = [index for index, run in enumerate(runs) if not _untrusted_wall_limit(run, limits)]
    if not trusted:
        return Measured(len(runs) - 1, None)
    decides = min(trusted, key=lambda index: runs[index].cpu_seconds)
    width = band(runs)
    near = _timed(runs[decides]) and abs(runs[decides].cpu_seconds - limits.time_seconds) <= width * limits.time_seconds
    return Measured(decides, round(width, 3) if near else None)


def _timed(stats: RunStats) -> bool:
    """A run whose verdict its CPU time decides: it exited cleanly, or the CPU limit stopped it."""
    return stats.tripped is Tripped.CPU or (stats.tripped is None and stats.exit_code == 0 and stats.signal is None)


def _trusted(runs: Sequence[RunStats]) -> list[RunStats]:
    return [run for run in runs if run.tripped is not Tripped.WALL or run.waiting_seconds is not None]


def _untrusted_wall_limit(stats: RunStats, limits: Limits) -> bool:
    """A wall TLE with CPU time to spare, whose waiting for a CPU no one could measure."""
    return stats.tripped is Tripped.WALL and stats.waiting_seconds is None and stats.cpu_seconds < limits.time_seconds
