"""Control groups: one per test run, so CPU time, peak memory and process count cover the whole process tree.

A run's group is created by the judge, the child joins it before exec (`join` is called in the child), and
every process the submission starts inherits it, even ones that double-fork or call setsid. Supports cgroup v2
(unified hierarchy: memory.peak, memory.events, cpu.stat, pids.max, cgroup.kill) and cgroup v1 (separate
memory, cpuacct, pids and freezer hierarchies). On v2 the groups go under a group the judge has to itself
(v2_base.py). Where neither can be created (no root, no delegation) the caller falls back to rlimits and
polling; `probe()` tells which, and `availability()` why. This module makes the groups; run_group.py is a group
once made, stale_groups.py names them and sweeps what dead judges left.
"""

from __future__ import annotations

import atexit
import errno
import functools
import os
from pathlib import Path

from msgspec import Struct

from judge.runner.containment import v2_base, v2_delegation
from judge.runner.containment.run_group import PEAK_FILE, RunGroup, write_small
from judge.runner.containment.stale_groups import group_name, sweep_once

CGROUP_ROOT = Path("/sys/fs/cgroup")


def _own_paths() -> dict[str, str]:
    """Map each v1 controller (and "" for v2) to this process's cgroup path, from /proc/self/cgroup."""
    paths: dict[str, str] = {}
    for line in Path("/proc/self/cgroup").read_text().splitlines():
        _, controllers, path = line.split(":", 2)
        for controller in controllers.split(",") if controllers else [""]:
            paths[controller] = path
    return paths


def create(memory_bytes: int | None, max_processes: int | None) -> RunGroup | None:
    """A fresh group with the memory and process limits set (None: no limit, a launcher's own group), or None
    when this machine does not let us (`availability` says why)."""
    try:
        return _create(memory_bytes, max_processes)
    except (OSError, v2_base.NoBase):
        return None


def _create(memory_bytes: int | None, max_processes: int | None) -> RunGroup:
    """As `create`, raising what stopped it."""
    name = group_name(os.urandom(6).hex())
    if (CGROUP_ROOT / "cgroup.controllers").exists():
        return _create_v2(name, memory_bytes, max_processes)
    return _create_v1(name, memory_bytes, max_processes)


@functools.cache
def _v2_base(root: Path) -> v2_base.Base | v2_base.NoBase:
    """Where this process makes its v2 run groups, found (and the judge moved) once per process, and given back
    as it was found when the process exits."""
    try:
        base = v2_base.find_base(root)
    except v2_base.NoBase as problem:
        return problem
    atexit.register(v2_base.give_back, base)
    return base


def _create_v2(name: str, memory_bytes: int | None, max_processes: int | None) -> RunGroup:
    base = _v2_base(CGROUP_ROOT)
    if isinstance(base, v2_base.NoBase):
        raise base
    parent = base.folder
    sweep_once((parent,))
    folder = parent / name
    folder.mkdir()
    group = RunGroup(version=2, dirs={"memory": folder, "cpu": folder, "pids": folder})
    try:
        if memory_bytes is not None:
            write_small(folder / "memory.max", str(memory_bytes))
            if (folder / "memory.swap.max").exists():
                write_small(folder / "memory.swap.max", "0")
        if max_processes is not None:
            write_small(folder / "pids.max", str(max_processes))
    except OSError:
        group.remove()
        raise
    return group


@functools.cache
def _v1_parents(root: Path) -> dict[str, Path] | None:
    """Per role, the v1 folder this process belongs to (where run groups go); None if a needed controller is not
    mounted. Looked up once per process: it is several stats and a read of /proc/self/cgroup."""
    own = _own_paths()
    parents: dict[str, Path] = {}
    for role, controller in (("memory", "memory"), ("cpu", "cpuacct"), ("pids", "pids"), ("freezer", "freezer")):
        hierarchy = next((root / d for d in (controller, f"cpu,{controller}") if (root / d).is_dir()), None)
        if hierarchy is None:
            if role == "freezer":
                continue
            return None
        parents[role] = hierarchy / own.get(controller, "/").lstrip("/")
    return parents


def _create_v1(name: str, memory_bytes: int | None, max_processes: int | None) -> RunGroup:
    parents = _v1_parents(CGROUP_ROOT)
    if parents is None:
        raise FileNotFoundError(
            errno.ENOENT, "a cgroup v1 memory, cpuacct or pids hierarchy is not mounted", str(CGROUP_ROOT)
        )
    sweep_once(tuple(parents.values()))
    dirs = {role: parent / name for role, parent in parents.items()}
    group = RunGroup(version=1, dirs={})
    try:
        for role, folder in dirs.items():
            folder.mkdir()
            group.dirs[role] = folder
        if memory_bytes is not None:
            write_small(dirs["memory"] / "memory.limit_in_bytes", str(memory_bytes))
            if (dirs["memory"] / "memory.memsw.limit_in_bytes").exists():
                write_small(dirs["memory"] / "memory.memsw.limit_in_bytes", str(memory_bytes))
        if max_processes is not None:
            write_small(dirs["pids"] / "pids.max", str(max_processes))
    except OSError:
        group.remove()
        raise
    return group


class Availability(Struct, frozen=True):
    """What this machine allows: `cgroup v1`, `cgroup v2` or `none`, and where run groups go or why none can."""

    mechanism: str
    detail: str
    fix: str = ""  # the command that gives the judge a control group, where it has none


@functools.cache
def availability() -> Availability:
    """Make and remove one run group, once per process, and say what came of it (for `judge doctor`)."""
    try:
        group = _create(64 * 1024 * 1024, 8)
    except v2_base.NoBase as problem:
        return Availability("none", f"cgroup v2: {problem}", problem.fix)
    except OSError as error:
        version = "v2" if (CGROUP_ROOT / "cgroup.controllers").exists() else "v1"
        fix = (
            "run the judge as root, or have root make it a group in each v1 hierarchy (memory, cpuacct, pids) "
            "and chown it"
            if version == "v1"
            else v2_delegation.scope_command()
        )
        return Availability("none", f"cgroup {version}: " + v2_delegation.refusal(error, "creating a run group"), fix)
    # A v2 kernel before 5.19 has no memory.peak: the judge cannot measure a run's peak there (polling can).
    measurable = (group.dirs["memory"] / PEAK_FILE[group.version]).exists()
    group.remove()
    if not measurable:
        return Availability(
            "none",
            f"cgroup v{group.version}: this kernel has no {PEAK_FILE[group.version]} "
            "(Linux 5.19 or later has), so a run's peak memory cannot be measured",
            "a kernel of Linux 5.19 or later",
        )
    if group.version == 1:
        return Availability(
            "cgroup v1", f"run groups under this process's group in each hierarchy ({group.dirs['memory'].parent}, ...)"
        )
    base = _v2_base(CGROUP_ROOT)
    assert isinstance(base, v2_base.Base)
    return Availability("cgroup v2", f"run groups under {base.how}; controllers {' '.join(sorted(base.controllers))}")


def probe() -> str:
    """Describe what this machine allows, for `judge doctor` and reports: `cgroup v1`, `cgroup v2` or `none`."""
    return availability().mechanism
