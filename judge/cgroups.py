"""Control groups: one per test run, so CPU time, peak memory and process count cover the whole process tree.

A run's group is created by the judge, the child joins it before exec (`join` is called in the child), and
every process the submission starts inherits it, even ones that double-fork or call setsid. Supports cgroup v2
(unified hierarchy: memory.peak, memory.events, cpu.stat, pids.max, cgroup.kill) and cgroup v1 (separate
memory, cpuacct, pids and freezer hierarchies). Where neither can be created (no root, no delegation) the
caller falls back to rlimits and polling; `probe()` tells which.
"""

from __future__ import annotations

import functools
import os
import secrets
import signal
import time
from dataclasses import dataclass
from pathlib import Path

CGROUP_ROOT = Path("/sys/fs/cgroup")


def _own_paths() -> dict[str, str]:
    """Map each v1 controller (and "" for v2) to this process's cgroup path, from /proc/self/cgroup."""
    paths: dict[str, str] = {}
    for line in Path("/proc/self/cgroup").read_text().splitlines():
        _, controllers, path = line.split(":", 2)
        for controller in controllers.split(",") if controllers else [""]:
            paths[controller] = path
    return paths


def _write(path: Path, value: str) -> None:
    with open(path, "w") as handle:
        handle.write(value)


def _read(path: Path) -> str:
    """A small control file's text. os.open, not Path.read_text: several of these are read per run."""
    descriptor = os.open(path, os.O_RDONLY)
    try:
        return os.read(descriptor, 65536).decode()
    finally:
        os.close(descriptor)


def _read_int(path: Path, default: int = 0) -> int:
    try:
        return int(_read(path).split()[0])
    except (OSError, ValueError, IndexError):
        return default


def _keyed(path: Path) -> dict[str, int]:
    """Parse a `key value` per line file such as memory.events or cpu.stat."""
    try:
        pairs = (line.split() for line in _read(path).splitlines())
        return {pair[0]: int(pair[1]) for pair in pairs if len(pair) == 2}
    except OSError:
        return {}


@dataclass
class RunGroup:
    """The control group(s) of one run. `dirs` maps a role (memory, cpu, pids, freezer) to its folder."""

    version: int
    dirs: dict[str, Path]

    def join_files(self) -> tuple[Path, ...]:
        """The files a process writes "0" to, to move itself into the group (in the child between fork and exec,
        or a launcher hopping in to start a run).

        On v1 these are the `tasks` files, not `cgroup.procs`: a single-threaded process moves by its thread,
        and the kernel then skips the global threadgroup lock whose RCU grace period makes each `cgroup.procs`
        write cost several milliseconds (about 5 ms per run here).
        """
        name = "tasks" if self.version == 1 else "cgroup.procs"
        return tuple(folder / name for folder in dict.fromkeys(self.dirs.values()))

    def cpu_seconds(self) -> float:
        if self.version == 2:
            return _keyed(self.dirs["cpu"] / "cpu.stat").get("usage_usec", 0) / 1e6
        return _read_int(self.dirs["cpu"] / "cpuacct.usage") / 1e9

    def peak_bytes(self) -> int:
        name = "memory.peak" if self.version == 2 else "memory.max_usage_in_bytes"
        return _read_int(self.dirs["memory"] / name)

    def reset_peak(self) -> None:
        """Forget the peak so far: the child's copy of the judge between fork and exec is not the submission's."""
        if self.version == 1:
            _write(self.dirs["memory"] / "memory.max_usage_in_bytes", "0")

    def hit_memory_limit(self) -> bool:
        """Whether the kernel refused memory or OOM-killed a process of this group."""
        if self.version == 2:
            events = _keyed(self.dirs["memory"] / "memory.events")
            return events.get("oom_kill", 0) > 0 or events.get("max", 0) > 0
        oom_kills = _keyed(self.dirs["memory"] / "memory.oom_control").get("oom_kill", 0)
        return oom_kills > 0 or _read_int(self.dirs["memory"] / "memory.failcnt") > 0

    def hit_process_limit(self) -> bool:
        """Whether a fork or clone failed because the group reached its process limit."""
        return _keyed(self.dirs["pids"] / "pids.events").get("max", 0) > 0

    def pids(self) -> list[int]:
        pids: set[int] = set()
        for folder in self.dirs.values():
            try:
                pids.update(int(pid) for pid in _read(folder / "cgroup.procs").split())
            except OSError:
                pass
        return sorted(pids)

    def kill_all(self) -> None:
        """SIGKILL every process in the group, including ones forking while we kill."""
        if self.version == 2 and (self.dirs["pids"] / "cgroup.kill").exists():
            _write(self.dirs["pids"] / "cgroup.kill", "1")
            return
        # The usual case after a clean exit: nothing left. Every process of a run is in all of its hierarchies
        # (it joins them all before exec), so the pids hierarchy's count is enough to know: one read, not four.
        if _read_int(self.dirs["pids"] / "pids.current", default=1) == 0:
            return
        freezer = self.dirs.get("freezer")
        if freezer is not None:
            _write(freezer / "freezer.state", "FROZEN")
        for _ in range(100):
            pids = self.pids()
            if not pids:
                break
            for pid in pids:
                try:
                    os.kill(pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
            if freezer is not None:
                _write(freezer / "freezer.state", "THAWED")
            time.sleep(0.001)

    def remove(self) -> None:
        """Delete the group's folders; waits briefly for killed processes to leave."""
        for folder in dict.fromkeys(self.dirs.values()):
            for _ in range(200):
                try:
                    folder.rmdir()
                    break
                except FileNotFoundError:
                    break
                except OSError:
                    time.sleep(0.002)


def _sweep_stale(parents: tuple[Path, ...]) -> None:
    """Remove run groups left by judge processes that died mid-run (SIGKILL, a killed Dask worker)."""
    for parent in parents:
        for folder in parent.glob("judge-*-*"):
            owner = folder.name.split("-")[1]
            if owner.isdigit() and not Path(f"/proc/{owner}").exists():
                for pid in _read(folder / "cgroup.procs").split() if (folder / "cgroup.procs").exists() else []:
                    try:
                        os.kill(int(pid), signal.SIGKILL)
                    except ProcessLookupError:
                        pass
                try:
                    folder.rmdir()
                except OSError:
                    pass  # still busy: the next judge process tries again


@functools.lru_cache(maxsize=None)
def _sweep_once(parents: tuple[Path, ...]) -> None:
    _sweep_stale(parents)


def create(memory_bytes: int | None, max_processes: int | None) -> RunGroup | None:
    """A fresh group with the memory and process limits set (None: no limit, a launcher's own group), or None
    when this machine does not let us."""
    # Random, not counted: in a warm box a test sees its group's name (/proc/self/cgroup), and a counter would
    # tell it which test it is.
    name = f"judge-{os.getpid()}-{secrets.token_hex(6)}"
    try:
        if (CGROUP_ROOT / "cgroup.controllers").exists():
            return _create_v2(name, memory_bytes, max_processes)
        return _create_v1(name, memory_bytes, max_processes)
    except OSError:
        return None


def _create_v2(name: str, memory_bytes: int | None, max_processes: int | None) -> RunGroup | None:
    parent = CGROUP_ROOT / _own_paths().get("", "/").lstrip("/")
    _sweep_once((parent,))
    if not {"memory", "pids"} <= set((parent / "cgroup.subtree_control").read_text().split()):
        _write(parent / "cgroup.subtree_control", "+memory +pids +cpu")
    folder = parent / name
    folder.mkdir()
    group = RunGroup(version=2, dirs={"memory": folder, "cpu": folder, "pids": folder})
    try:
        if memory_bytes is not None:
            _write(folder / "memory.max", str(memory_bytes))
            if (folder / "memory.swap.max").exists():
                _write(folder / "memory.swap.max", "0")
        if max_processes is not None:
            _write(folder / "pids.max", str(max_processes))
    except OSError:
        group.remove()
        raise
    return group


@functools.lru_cache(maxsize=None)
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


def _create_v1(name: str, memory_bytes: int | None, max_processes: int | None) -> RunGroup | None:
    parents = _v1_parents(CGROUP_ROOT)
    if parents is None:
        return None
    _sweep_once(tuple(parents.values()))
    dirs = {role: parent / name for role, parent in parents.items()}
    group = RunGroup(version=1, dirs={})
    try:
        for role, folder in dirs.items():
            folder.mkdir()
            group.dirs[role] = folder
        if memory_bytes is not None:
            _write(dirs["memory"] / "memory.limit_in_bytes", str(memory_bytes))
            if (dirs["memory"] / "memory.memsw.limit_in_bytes").exists():
                _write(dirs["memory"] / "memory.memsw.limit_in_bytes", str(memory_bytes))
        if max_processes is not None:
            _write(dirs["pids"] / "pids.max", str(max_processes))
    except OSError:
        group.remove()
        raise
    return group


@functools.lru_cache(maxsize=None)
def probe() -> str:
    """Describe what this machine allows, for `judge doctor` and reports: `cgroup v1`, `cgroup v2` or `none`."""
    group = create(64 * 1024 * 1024, 8)
    if group is None:
        return "none"
    group.remove()
    return f"cgroup v{group.version}"
