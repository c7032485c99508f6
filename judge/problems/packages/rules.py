"""What only a problem package brings to its `Problem` (judge/problems/model.py): its rule for time limits and
the arguments its groups give input validators. Apart from model.py, so that `judge run` on a problem folder of
ours never creates them (issue 45: every record class is made at start-up, and costs it).
"""

from __future__ import annotations

import math
from pathlib import Path

from msgspec import Struct


class ValidatorArgs(Struct, frozen=True):
    """The arguments a test's group gives its input validators (a package's `input_validator_args`): the same
    ones for every validator, or some per validator name; a validator named nowhere gets none."""

    every: tuple[str, ...] = ()
    by_name: tuple[tuple[str, tuple[str, ...]], ...] = ()

    def for_validator(self, path: Path) -> tuple[str, ...]:
        """The arguments of the validator at `path`, named as the format names a program: its file or folder
        name (with or without the extension, as packages write both)."""
        if not self.by_name:
            return self.every
        named = dict(self.by_name)
        return named.get(path.name, named.get(path.stem, ()))


class TimeRule(Struct, frozen=True):
    """How to set a time limit a problem does not give (problem packages): the slowest accepted reference
    submission × `ac_to_time_limit`, rounded up to a multiple of `resolution`; a time_limit_exceeded submission
    must still fail at the limit × `time_limit_to_tle`."""

    ac_to_time_limit: float
    time_limit_to_tle: float
    resolution: float
    legacy: bool = False
    """The legacy format names the multiplier `time_multiplier` and has no `limits.time_limit` (only .timelimit)."""

    def limit_for(self, slowest_accepted_seconds: float) -> float:
        steps = max(1, math.ceil(round(slowest_accepted_seconds * self.ac_to_time_limit / self.resolution, 9)))
        return round(steps * self.resolution, 6)

    def derivation(self, slowest_accepted_seconds: float) -> str:
        """How `limit_for` got its limit, in the package's own key names, so an author can check it and write it
        down: `0.040 s × 4 (limits.time_multiplier) = 0.160 s, rounded up to a multiple of 1 s: 1 s`."""
        product = slowest_accepted_seconds * self.ac_to_time_limit
        key = "limits.time_multiplier" if self.legacy else "limits.time_multipliers.ac_to_time_limit"
        step = f"{self.resolution:g} s" if self.legacy else f"{self.resolution:g} s (limits.time_resolution)"
        return (
            f"{slowest_accepted_seconds:.3f} s × {self.ac_to_time_limit:g} ({key}) = {product:.3f} s, rounded up to "
            f"a multiple of {step}, at least one: {self.limit_for(slowest_accepted_seconds):g} s"
        )

    @property
    def where_to_write(self) -> str:
        """Where a package gives its time limit, so that nothing needs deriving."""
        return ".timelimit" if self.legacy else "limits.time_limit in problem.yaml (or .timelimit)"
