"""How a run's process tree is contained and measured: one interface, one implementation per mechanism.

`execute.run` asks a `Containment` for a `Contained` per run and then only reads start → watch → kill → facts
from it. The mechanisms, best first:

- `cgroup v2` / `cgroup v1`: the kernel counts CPU time, peak memory and processes of the whole tree exactly
  and kills it whole (judge/cgroups.py); a process joins by writing "0" to the group's `join_files`.
- `proc`: Linux without a control group: the tree is found through /proc (judge/proctree.py), CPU and RSS are
  polled, RLIMIT_AS caps each process's memory and RLIMIT_NPROC the processes.
- `portable`: psutil and the standard library only, for machines without /proc or cgroups (macOS, a student's
  laptop): the tree's CPU time and RSS polled, the tree killed. It cannot stop a fork bomb or a process that
  leaves the tree before it is seen; `--require-sandbox` refuses to run without a real sandbox.

`choose_containment` picks the best one this machine has, once per process, or the one asked for by name.
"""

from __future__ import annotations

import functools
import os
import signal
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager, nullcontext
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    import psutil  # imported where used: only the portable mechanism needs it

from judge import cgroups, proctree
from judge.errors import JudgeFailure, SandboxUnavailable

MIB = 1024 * 1024
RESIDUE_LIMIT_BYTES = 4 * MIB  # what a reused control group may keep charged from earlier runs (see _ReusedGroup)
CONTAINMENT_NAMES = ("cgroup", "proc", "portable")


@dataclass(frozen=True)
class Sample:
    """One look at a running tree: CPU seconds so far and resident bytes now (0 where the kernel caps memory)."""

    cpu_seconds: float
    rss_bytes: int


@dataclass(frozen=True)
class Guards:
    """The per-process rlimits a mechanism needs where it cannot count the tree itself."""

    limit_address_space: bool  # RLIMIT_AS per process: nothing else caps memory
    max_tasks: int | None  # RLIMIT_NPROC to set, or None where a pids limit counts exactly


@dataclass(frozen=True)
class Contained:
    """What a run's first process must do or carry before exec, decided by the mechanism."""

    join_files: tuple[Path, ...]  # write "0" to each to join the run's group
    guards: Guards
    token: str  # in the run's environment, so an escaped process can still be recognised


def _contained(join_files: tuple[Path, ...], guards: Guards) -> Contained:
    """A run's `Contained`, with a token of its own (random: a counter would tell a run which one it is)."""
    return Contained(join_files, guards, os.urandom(16).hex())


@dataclass(frozen=True)
class Outcome:
    """What the mechanism measured of a finished run."""

    cpu_seconds: float
    peak_bytes: int
    hit_memory_limit: bool
    hit_process_limit: bool


class Run(Protocol):
    """One run's containment, from before the start to after the last process is gone."""

    contained: Contained

    def started(self, pid: int | None) -> None:
        """The run's first process exists: its pid as the judge sees it, None in a box's own PID namespace
        (only a control group can follow a run there)."""

    def sample(self) -> Sample: ...

    def kill(self) -> None:
        """SIGKILL every process of the run, including ones forking meanwhile."""

    def outcome(self, reaped_cpu: float, reaped_peak: int, starter_rss: int) -> Outcome:
        """The facts after the run. `reaped_*` come from the first process's rusage; `starter_rss` is the RSS
        of the process that forked it (its copy of that process before exec is not the submission's)."""

    def close(self) -> None:
        """Release what the run held (a control group); also after an interruption."""


class Containment(Protocol):
    name: str
    uses_groups: bool  # a control group per run: it follows a run into a box's own PID namespace

    def guards(self, max_processes: int) -> Guards: ...

    def open(self, memory_mib: int, max_processes: int) -> Run: ...

    def home(self) -> Run | None:
        """A group without limits for a launcher to live in between runs, where the mechanism has groups."""

    def for_runs(self, memory_mib: int, max_processes: int) -> AbstractContextManager[Containment]:
        """The containment for many runs in a row under the same limits (a submission's tests): one control
        group reused from run to run where the kernel can start its counters again, else this one itself."""


# --- control groups ------------------------------------------------------------------------------------------


@dataclass
class _CgroupRun:
    group: cgroups.RunGroup
    contained: Contained
    before: cgroups.Counters  # what the group had counted before this run (nothing, in a fresh group)
    release: Callable[[cgroups.RunGroup], None]  # after the run: remove the group, or give it back

    def started(self, pid: int | None) -> None:
        self.group.reset_peak()

    def sample(self) -> Sample:
        return Sample(self.group.cpu_seconds() - self.before.cpu_seconds, 0)

    def kill(self) -> None:
        self.group.kill_all()

    def outcome(self, reaped_cpu: float, reaped_peak: int, starter_rss: int) -> Outcome:
        after, before = self.group.counters(), self.before
        return Outcome(max(reaped_cpu, after.cpu_seconds - before.cpu_seconds),
                       max(0, self.group.peak_bytes() - before.charged_bytes),
                       after.memory_refusals > before.memory_refusals,
                       after.process_refusals > before.process_refusals)

    def close(self) -> None:
        self.release(self.group)


@dataclass(frozen=True)
class CgroupContainment:
    """A control group per run (v1 or v2, whichever this machine mounts)."""

    version: int
    uses_groups: bool = True

    @property
    def name(self) -> str:
        return f"cgroup v{self.version}"

    def guards(self, max_processes: int) -> Guards:
        return Guards(limit_address_space=False, max_tasks=None)

    def open(self, memory_mib: int, max_processes: int) -> Run:
        return self.run_in(self.new_group(memory_mib * MIB, max_processes))

    def home(self) -> Run | None:
        return self.run_in(self.new_group(None, None))

    @contextmanager
    def for_runs(self, memory_mib: int, max_processes: int) -> Iterator[Containment]:
        """On v1, one group for the runs (see `_ReusedGroup`). On v2 a fresh group per run: its memory.peak
        starts again only through a descriptor opened for it (Linux 6.12), which the judge does not rely on."""
        if self.version != 1:
            yield self
            return
        reused = _ReusedGroup(self, memory_mib * MIB, max_processes)
        try:
            yield reused
        finally:
            reused.close()

    def new_group(self, memory_bytes: int | None, max_processes: int | None) -> cgroups.RunGroup:
        group = cgroups.create(memory_bytes, max_processes)
        if group is None:
            raise OSError(f"the judge could no longer create a {self.name} control group")
        return group

    def run_in(self, group: cgroups.RunGroup, before: cgroups.Counters = cgroups.NOTHING_COUNTED,
               release: Callable[[cgroups.RunGroup], None] = cgroups.RunGroup.remove) -> Run:
        """A run in `group`, which had counted `before` already; `release` is what its close does."""
        return _CgroupRun(group, _contained(group.join_files(), self.guards(0)), before, release)


@dataclass
class _ReusedGroup:
    """One cgroup v1 group for a submission's tests, run after run: a fresh group costs about 0.8 ms per test
    (four folders made and removed, their limits written, their files opened).

    Each run still counts and gets what a fresh group would give it. Before it starts, the group's counters
    are read and the run is what they count after (CPU time, refused charges and forks); its peak starts again
    from what is charged then, which is subtracted, and its memory limit is raised by as much. (The kernel
    charges memory in per-CPU batches of 64 pages, so a peak may come out up to ~0.5 MiB under a fresh group's.)
    What stays charged between runs is the kernel's cache of what earlier runs touched (their output is
    emptied first); a group holding more than RESIDUE_LIMIT_BYTES, or still holding a process after its run,
    is replaced by a fresh one. A run in the box never sees the group's files (no /sys there).
    """

    fresh: CgroupContainment
    memory_bytes: int
    max_processes: int
    group: cgroups.RunGroup | None = None
    busy: bool = False
    uses_groups: bool = True

    @property
    def name(self) -> str:
        return self.fresh.name

    def guards(self, max_processes: int) -> Guards:
        return self.fresh.guards(max_processes)

    def home(self) -> Run | None:
        return self.fresh.home()

    @contextmanager
    def for_runs(self, memory_mib: int, max_processes: int) -> Iterator[Containment]:
        yield self

    def open(self, memory_mib: int, max_processes: int) -> Run:
        if self.busy or (memory_mib * MIB, max_processes) != (self.memory_bytes, self.max_processes):
            return self.fresh.open(memory_mib, max_processes)
        before = self.group.counters() if self.group is not None else None
        if self.group is None or before is None or before.charged_bytes > RESIDUE_LIMIT_BYTES:
            self.close()
            self.group = self.fresh.new_group(self.memory_bytes, self.max_processes)
            before = cgroups.NOTHING_COUNTED
        else:
            self.group.set_memory_limit(self.memory_bytes + before.charged_bytes)
        self.busy = True
        return self.fresh.run_in(self.group, before, self._release)

    def _release(self, group: cgroups.RunGroup) -> None:
        self.busy = False
        if not group.is_empty():
            self.close()

    def close(self) -> None:
        if self.group is not None:
            self.group.remove()
            self.group = None


# --- /proc ---------------------------------------------------------------------------------------------------


class _Polled:
    """The facts of a run whose CPU time and peak memory were polled (no group counts them, or limits)."""

    cpu: float
    peak: int

    def outcome(self, reaped_cpu: float, reaped_peak: int, starter_rss: int) -> Outcome:
        return Outcome(max(reaped_cpu, self.cpu), _polled_peak(self.peak, reaped_peak, starter_rss), False, False)

    def close(self) -> None:
        return None



@dataclass
class _ProcRun(_Polled):
    contained: Contained
    forks_before: int
    spawned: proctree.Spawned | None = None
    cpu: float = 0.0
    peak: int = 0

    def started(self, pid: int | None) -> None:
        if pid is None:
            raise JudgeFailure("a run in a box's own PID namespace needs a control group to be followed")
        self.spawned = proctree.Spawned(pid, self.forks_before, self.contained.token)

    def sample(self) -> Sample:
        if self.spawned is None:
            return Sample(self.cpu, 0)
        cpu, rss = self.spawned.usage()
        self.cpu, self.peak = max(self.cpu, cpu), max(self.peak, rss)
        return Sample(cpu, rss)

    def kill(self) -> None:
        if self.spawned is not None:
            self.spawned.kill()


@dataclass(frozen=True)
class ProcContainment:
    """Linux without a control group: /proc polling, RLIMIT_AS and RLIMIT_NPROC."""

    name: str = "proc"
    uses_groups: bool = False

    def guards(self, max_processes: int) -> Guards:
        # RLIMIT_NPROC counts every task of the user, so it is the tasks on the machine now plus the allowance
        # (a plain allowance would fail a thread start of a user who already runs that many: a desktop, a JVM).
        return Guards(limit_address_space=True, max_tasks=proctree.tasks_now() + max_processes)

    def open(self, memory_mib: int, max_processes: int) -> Run:
        return _ProcRun(_contained((), self.guards(max_processes)), proctree.forks_so_far())

    def home(self) -> Run | None:
        return None

    def for_runs(self, memory_mib: int, max_processes: int) -> AbstractContextManager[Containment]:
        return nullcontext(self)


# --- psutil --------------------------------------------------------------------------------------------------


@dataclass
class _PortableRun(_Polled):
    contained: Contained
    root: "psutil.Process | None" = None
    known: "dict[int, psutil.Process]" = field(default_factory=dict)  # every process seen in the tree
    cpu: float = 0.0
    peak: int = 0

    def started(self, pid: int | None) -> None:
        import psutil
        if pid is None:
            raise JudgeFailure("a run in a box's own PID namespace needs a control group to be followed")
        try:
            self.root = psutil.Process(pid)
        except psutil.NoSuchProcess:
            self.root = None
        self.known = {pid: self.root} if self.root is not None else {}

    def _tree(self) -> list[psutil.Process]:
        import psutil
        if self.root is None:
            return []
        try:
            for child in self.root.children(recursive=True):
                self.known.setdefault(child.pid, child)
        except psutil.Error:
            pass
        return list(self.known.values())

    def sample(self) -> Sample:
        import psutil
        cpu, rss = 0.0, 0
        for process in self._tree():
            try:
                with process.oneshot():
                    times = process.cpu_times()
                    cpu += times.user + times.system + getattr(times, "children_user", 0.0) \
                        + getattr(times, "children_system", 0.0)
                    rss += process.memory_info().rss
            except psutil.Error:
                continue
        self.cpu, self.peak = max(self.cpu, cpu), max(self.peak, rss)
        return Sample(cpu, rss)

    def kill(self) -> None:
        import psutil
        for _ in range(20):
            alive = []
            for process in self._tree():
                try:
                    if process.status() != psutil.STATUS_ZOMBIE:
                        process.kill()
                        alive.append(process)
                except psutil.Error:
                    continue
            if not alive:
                return
            time.sleep(0.001)


@dataclass(frozen=True)
class PortableContainment:
    """psutil only: the tree's CPU and RSS polled, the tree killed; no process or hard memory limit."""

    name: str = "portable"
    uses_groups: bool = False

    def guards(self, max_processes: int) -> Guards:
        return Guards(limit_address_space=sys.platform != "win32", max_tasks=None)

    def open(self, memory_mib: int, max_processes: int) -> Run:
        return _PortableRun(_contained((), self.guards(max_processes)))

    def home(self) -> Run | None:
        return None

    def for_runs(self, memory_mib: int, max_processes: int) -> AbstractContextManager[Containment]:
        return nullcontext(self)


def _polled_peak(polled: int, reaped: int, starter_rss: int) -> int:
    """Peak memory without a control group. ru_maxrss also counts the child's copy of its starter before exec,
    so it is the submission's own peak only when it is above the starter's RSS; else trust the polled peak."""
    return max(polled, reaped) if reaped > starter_rss * 1.05 else polled


# --- choice --------------------------------------------------------------------------------------------------


@functools.lru_cache(maxsize=None)
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


def choose_containment(name: str | None = None) -> Containment:
    """The containment called `name` (cgroup, proc, portable), or the best this machine has when None."""
    available = available_containments()
    chosen = name or available[0]
    if chosen not in available:
        raise SandboxUnavailable(f"--containment {chosen}: not available here (this machine has: {', '.join(available)})")
    if chosen == "cgroup":
        version = _cgroup_version()
        assert version is not None
        return CgroupContainment(version)
    if chosen == "proc":
        return ProcContainment()
    return PortableContainment()


def describe(containment: Containment) -> str:
    """How memory is limited and measured with `containment` (in `judge doctor` and every report)."""
    if isinstance(containment, CgroupContainment):
        return f"{containment.name} (memory limit and peak of the whole process tree)"
    if isinstance(containment, ProcContainment):
        return "RLIMIT_AS per process + the process tree's RSS polled from /proc"
    return "the process tree's RSS polled with psutil (no hard memory limit, no process limit)"


def kill_process_group(pid: int) -> None:
    """SIGKILL the process group `pid` leads (every run starts its own session), if it still exists."""
    try:
        os.killpg(pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError, AttributeError):
        pass
