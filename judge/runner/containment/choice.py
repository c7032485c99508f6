"""Which containment a run gets: the best this machine has, once per process, or the one `--containment` names."""

from __future__ import annotations

import functools
import os
import sys

from judge.errors import SandboxUnavailable
from judge.runner.containment import cgroups
from judge.runner.containment.cgroup import CgroupContainment
from judge.runner.containment.protocol import Containment

CONTAINMENT_NAMES = ("cgroup", "proc", "portable")
REQUIRABLE = ("cgroup",)
"""What `--require-containment` may insist on: the mechanism whose limits the kernel enforces on the whole tree."""


@functools.cache
def _cgroup_version() -> int | None:
    mechanism = cgroups.probe()
    return int(mechanism[-1]) if mechanism.startswith("cgroup v") else None


def available_containments() -> tuple[str, ...]:
    """The mechanisms this machine has, best first (names for `--containment`)."""
    names = []
    if sys.platform.startswith("linux"):
        if _cgroup_version() is not None:
            names.append("cgroup")
        if os.path.isdir("/proc/self"):
            names.append("proc")
    names.append("portable")
    return tuple(names)


def choose_containment(name: str | None = None, required: str | None = None) -> Containment:
    """The containment called `name` (cgroup, proc, portable), or the best this machine has when None; with
    `required` (cgroup), refused unless it is that one: fail closed rather than under weaker limits."""
    chosen = _containment(name)
    if required is not None and not chosen.name.startswith(required):
        raise SandboxUnavailable(
            f"--require-containment {required}: runs here would be limited by {describe(chosen)}, not a control "
            f"group; `judge doctor` says why (or drop the option / unset JUDGE_REQUIRE_CONTAINMENT)"
        )
    return chosen


def _containment(name: str | None) -> Containment:
    available = available_containments()
    chosen = name or available[0]
    if chosen not in available:
        raise SandboxUnavailable(
            f"--containment {chosen}: not available here (this machine has: {', '.join(available)})"
        )
    if chosen == "cgroup":
        version = _cgroup_version()
        assert version is not None
        return CgroupContainment(version)
    from judge.runner.containment.polled import PortableContainment, ProcContainment  # noqa: PLC0415 -- no cgroups

    if chosen == "proc":
        return ProcContainment()
    return PortableContainment()


def describe(containment: Containment) -> str:
    """How memory is limited and measured with `containment` (in `judge doctor` and every report)."""
    if isinstance(containment, CgroupContainment):
        return f"{containment.name} (memory limit and peak of the whole process tree)"
    from judge.runner.containment.polled import ProcContainment  # noqa: PLC0415 -- as in _containment

    if isinstance(containment, ProcContainment):
        return "RLIMIT_AS per process + the process tree's RSS polled from /proc"
    return "the process tree's RSS polled with psutil (no hard memory limit, no process limit)"
