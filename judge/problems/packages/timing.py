"""A package's limits in our units: the time limit it gives (`limits.time_limit`, or a `.timelimit` file), else
the rule to derive one from its accepted submissions, as problemtools does; memory, output and code size limits
with problemtools' defaults."""

from __future__ import annotations

import os
from pathlib import Path

import msgspec.structs

from judge.errors import SpecError
from judge.problems.files import read_problem_file
from judge.problems.model import Problem
from judge.problems.packages.rules import TimeRule
from judge.problems.packages.spec import PackageSpec, TimeMultipliers

TIMELIMIT_FILE = ".timelimit"
DEFAULT_MEMORY_MIB = 2048
DEFAULT_OUTPUT_MIB = 8
DEFAULT_CODE_KIB = 128
LEGACY_MULTIPLIER, LEGACY_MARGIN = 5.0, 2.0
MEASURING_CEILING_SECONDS = 60.0
"""The time limit while the accepted submissions are measured (problemtools allows 300 s; an accepted reference
submission that needs a minute is broken, and this bounds how long verify waits for one)."""


def given_time_limit(root: Path, spec: PackageSpec) -> tuple[float | None, Path | None]:
    """The package's own time limit in seconds and the file it came from, or (None, None) to derive one."""
    path = root / TIMELIMIT_FILE
    if not os.path.lexists(path):
        return spec.limits.time_limit, None
    try:
        text = read_problem_file(path, root, 64, what=TIMELIMIT_FILE).decode("ascii").strip()
    except UnicodeDecodeError:
        raise SpecError(f"{path}: must be a small regular file holding a number of seconds") from None
    try:
        seconds = float(text)
    except ValueError:
        raise SpecError(f"{path}: must hold a number of seconds, got {text[:20]!r}") from None
    if not 0 < seconds <= 3600:
        raise SpecError(f"{path}: must hold a positive number of seconds up to 3600, got {text!r}")
    return seconds, path


def time_rule(spec: PackageSpec) -> TimeRule:
    """The derivation rule: legacy `time_multiplier`/`time_safety_margin` (5, 2), later `time_multipliers` (2, 1.5)."""
    limits = spec.limits
    if spec.legacy:
        return TimeRule(
            limits.time_multiplier or LEGACY_MULTIPLIER,
            limits.time_safety_margin or LEGACY_MARGIN,
            limits.time_resolution,
            legacy=True,
        )
    multipliers = limits.time_multipliers or TimeMultipliers()
    return TimeRule(multipliers.ac_to_time_limit, multipliers.time_limit_to_tle, limits.time_resolution)


def with_time_limit(problem: Problem, seconds: float) -> Problem:
    """`problem` with a derived time limit, which travels with its pack as the legacy `.timelimit` file would."""
    spec = msgspec.structs.replace(problem.spec, time_limit=seconds)
    generated = (*problem.generated, (TIMELIMIT_FILE, f"{seconds:g}\n".encode()))
    return msgspec.structs.replace(problem, spec=spec, time_limit_pending=False, generated=generated)
