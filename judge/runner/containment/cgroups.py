"""Control groups: one per test run, so CPU time, peak memory and process count cover the whole process tree.

A run's group is created by the judge, the child joins it before exec (`join` is called in the child), and
every process the submission starts inherits it, even ones that double-fork or call setsid. Supports cgroup v2
(unified hierarchy: memory.peak, memory.events, cpu.stat, pids.max, cgroup.kill) and cgroup v1 (separate
memory, cpuacct, pids and freezer hierarchies). On v2 the groups go under a group the judge has to itself
(v2_base.py). Where neither can be created (no root, no delegation) the caller falls back to rlimits and
polling; `probe()` tells which, and `availability()` why.
"""

from __future__ import annotations

import atexit
import errno
import functools
import os
import signal
import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from judge.errors import JudgeFailure
from judge.runner.containment import v2_base

CGROUP_ROOT = Path("/sys/fs/cgroup")
_PEAK_FILE = {1: "memory.max_usage_in_bytes", 2: "memory.peak"}


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


@dataclass(frozen=True)
class Counters:
    """What a group has counted so far. A reused group's run is the difference between two of these."""

    cpu_seconds: float
    charged_bytes: int  # memory charged to the group now (a reused group keeps some page cache and slab)
    memory_refusals: int  # charges refused at the limit, and OOM kills
    process_refusals: int  # forks refused at the pids limit


NOTHING_COUNTED = Counters(0.0, 0, 0, 0)
"""A fresh group's counters."""


@dataclass
class RunGroup:
    """The control group(s) of one run. `dirs` maps a role (memory, cpu, pids, freezer) to its folder.

    The files read or written per run stay open (`_files`): an open of a control file costs 20 to 40 µs, a
    read of an open one a few, and a group reused for every test of a submission reads them for each test.
    """

    version: int
    dirs: dict[str, Path]
    _files: dict[tuple[str, str, int], int] = field(default_factory=dict, repr=False)

    def _descriptor(self, role: str, name: str, mode: int) -> int:
        key = (role, name, mode)
        if key not in self._files:
            self._files[key] = os.open(self.dirs[role] / name, mode | os.O_CLOEXEC)
        return self._files[key]

    def _text(self, role: str, name: str) -> str:
        """A counter file's text. A read that fails (the judge out of file descriptors, say) is the judge's
        failure, never a zero: a peak of 0 MiB or no CPU time would be a figure made up for the student."""
        try:
            return os.pread(self._descriptor(role, name, os.O_RDONLY), 65536, 0).decode()
        except OSError as error:
            raise JudgeFailure(f"the judge could not read {self.dirs[role] / name}: {error.strerror}") from None

    def _number(self, role: str, name: str) -> int:
        text = self._text(role, name)
        try:
            return int(text.split()[0])
        except (ValueError, IndexError):
            raise JudgeFailure(f"{self.dirs[role] / name}: not a number: {text[:40]!r}") from None

    def _keyed(self, role: str, name: str) -> dict[str, int]:
        """A `key value` per line file such as memory.events or cpu.stat."""
        pairs = (line.split() for line in self._text(role, name).splitlines())
        return {pair[0]: int(pair[1]) for pair in pairs if len(pair) == 2}

    def _set(self, role: str, name: str, value: str) -> None:
        os.pwrite(self._descriptor(role, name, os.O_WRONLY), value.encode(), 0)

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
            return self._keyed("cpu", "cpu.stat").get("usage_usec", 0) / 1e6
        return self._number("cpu", "cpuacct.usage") / 1e9

    def peak_bytes(self) -> int:
        return self._number("memory", _PEAK_FILE[self.version])

    def reset_peak(self) -> None:
        """Start the peak again from what is charged now: the child's copy of the judge between fork and exec
        is not the submission's, nor is a reused group's earlier runs. (v2 cannot: only a fresh group there.)"""
        if self.version == 1:
            self._set("memory", "memory.max_usage_in_bytes", "0")

    def counters(self) -> Counters:
        if self.version == 2:
            events = self._keyed("memory", "memory.events")
            charged = self._number("memory", "memory.current")
            memory_refusals = events.get("max", 0) + events.get("oom_kill", 0)
        else:
            charged = self._number("memory", "memory.usage_in_bytes")
            memory_refusals = self._number("memory", "memory.failcnt") + self._keyed(
                "memory", "memory.oom_control"
            ).get("oom_kill", 0)
        return Counters(self.cpu_seconds(), charged, memory_refusals, self._keyed("pids", "pids.events").get("max", 0))

    def set_memory_limit(self, limit_bytes: int) -> None:
        """Set the hard limit (memory and, where swap is counted, memory+swap, which must never be the lower)."""
        names = ["memory.limit_in_bytes"] if self.version == 1 else ["memory.max"]
        if self.version == 1 and (self.dirs["memory"] / "memory.memsw.limit_in_bytes").exists():
            lowering = limit_bytes < self._number("memory", "memory.limit_in_bytes")
            names = ["memory.limit_in_bytes", "memory.memsw.limit_in_bytes"][:: 1 if lowering else -1]
        for name in names:
            self._set("memory", name, str(limit_bytes))

    def is_empty(self) -> bool:
        """No process is left in the group (every process is in all of a run's hierarchies: one read is enough).
        Unreadable counts as not empty: the group is then killed and replaced, not reused."""
        try:
            return self._number("pids", "pids.current") == 0
        except JudgeFailure:
            return False

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
            self._set("pids", "cgroup.kill", "1")
            return
        if self.is_empty():  # the usual case after a clean exit
            return
        freezer = self.dirs.get("freezer")
        if freezer is not None:
            self._set("freezer", "freezer.state", "FROZEN")  # no fork escapes the first round of kills
        try:
            _kill(self.pids())
        finally:
            # A frozen process dies only once thawed; and a group left frozen (its last process may have left
            # by itself since is_empty) freezes whatever joins it next: a reused group's launcher.
            if freezer is not None:
                self._set("freezer", "freezer.state", "THAWED")
        for _ in range(100):
            pids = self.pids()
            if not pids:
                break
            _kill(pids)
            time.sleep(0.001)

    def remove(self) -> None:
        """Delete the group's folders; waits briefly for killed processes to leave."""
        for descriptor in self._files.values():
            os.close(descriptor)
        self._files.clear()
        for folder in dict.fromkeys(self.dirs.values()):
            for _ in range(200):
                try:
                    folder.rmdir()
                    break
                except FileNotFoundError:
                    break
                except OSError:
                    time.sleep(0.002)


def _kill(pids: Iterable[int]) -> None:
    """SIGKILL each of `pids` that is still there."""
    for pid in pids:
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass


def _sweep_stale(parents: tuple[Path, ...]) -> None:
    """Remove run groups left by judge processes that died mid-run (SIGKILL, a killed Dask worker).

    Only the groups this PID namespace's judges made (`_name`), and only once the kernel says their judge is gone
    (`_judge_lives`): the pid in a name means another process or none in another namespace, and /proc may show
    another namespace. A sweep that took a live judge (a container's, or the host's seen from one) for a dead one
    removed its groups while they held no process (the launcher's home group while the program compiled, the tests'
    run group between two tests), and the launcher's next write to one failed with ENODEV: a correct program's JE.
    """
    namespace = _own_pid_namespace()
    for parent in parents:
        for folder in parent.glob("judge-*-*"):
            judge = _owner(folder.name, namespace)
            if judge is not None and not _judge_lives(judge):
                if (folder / "freezer.state").exists():  # its judge may have died before thawing it
                    _write(folder / "freezer.state", "THAWED")
                _kill(
                    int(pid)
                    for pid in (_read(folder / "cgroup.procs").split() if (folder / "cgroup.procs").exists() else [])
                )
                try:
                    folder.rmdir()
                except OSError:
                    pass  # still busy: the next judge process tries again
        for leaf in parent.glob(f"{v2_base.LEAF_PREFIX}*"):  # a v2 judge's own leaf (v2_base.py): never killed
            owner = leaf.name[len(v2_base.LEAF_PREFIX) :]
            if owner.isdigit() and not Path(f"/proc/{owner}").exists():
                try:
                    leaf.rmdir()
                except OSError:
                    pass  # the judge's descendants still live in it


def _name(random: str) -> str:
    """A run group's name: `judge-<pid>-<PID namespace>-<random>`, the judge that made it and the namespace its pid
    is counted in, for the sweep (`_sweep_stale`). Random, not counted: in a warm box a test sees its group's name
    (/proc/self/cgroup), and a counter would tell it which test it is."""
    return f"judge-{os.getpid()}-{_own_pid_namespace()}-{random}"


@functools.cache
def _own_pid_namespace() -> int:
    """This process's PID namespace: its inode number, unique among the machine's live namespaces (/proc/self/ns/pid
    is the process's own namespace, whichever namespace's processes the /proc mount shows)."""
    return os.stat("/proc/self/ns/pid").st_ino


def _owner(name: str, namespace: int) -> int | None:
    """The pid of the judge that made the group called `name` when it was made in PID namespace `namespace`, else
    None (another namespace's, an earlier judge's unnamespaced name, a v2 judge's leaf: not ours to judge)."""
    parts = name.split("-")
    if len(parts) != 4 or not parts[1].isdigit() or parts[2] != str(namespace):
        return None
    return int(parts[1])


def _judge_lives(pid: int) -> bool:
    """Whether process `pid` of this PID namespace exists (a zombie too): the kernel's answer, not /proc's."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        pass  # another user's
    return True


@functools.cache
def _sweep_once(parents: tuple[Path, ...]) -> None:
    _sweep_stale(parents)


def create(memory_bytes: int | None, max_processes: int | None) -> RunGroup | None:
    """A fresh group with the memory and process limits set (None: no limit, a launcher's own group), or None
    when this machine does not let us (`availability` says why)."""
    try:
        return _create(memory_bytes, max_processes)
    except (OSError, v2_base.NoBase):
        return None


def _create(memory_bytes: int | None, max_processes: int | None) -> RunGroup:
    """As `create`, raising what stopped it."""
    name = _name(os.urandom(6).hex())
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
    _sweep_once((parent,))
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


@dataclass(frozen=True)
class Availability:
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
            else v2_base.scope_command()
        )
        return Availability("none", f"cgroup {version}: " + v2_base.refusal(error, "creating a run group"), fix)
    # A v2 kernel before 5.19 has no memory.peak: the judge cannot measure a run's peak there (polling can).
    measurable = (group.dirs["memory"] / _PEAK_FILE[group.version]).exists()
    group.remove()
    if not measurable:
        return Availability(
            "none",
            f"cgroup v{group.version}: this kernel has no {_PEAK_FILE[group.version]} "
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
