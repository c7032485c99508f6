"""The containments without a control group, whose runs are polled: `proc` (Linux: the tree found through /proc,
proctree.py, with RLIMIT_AS and RLIMIT_NPROC per process) and `portable` (psutil and the standard library only,
for macOS or a laptop without /proc: no process limit, so it cannot stop a fork bomb)."""

from __future__ import annotations

import sys
import time
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import psutil  # imported where used: only the portable mechanism needs it

from judge.errors import JudgeFailure
from judge.runner.containment import proctree
from judge.runner.containment.protocol import Contained, Containment, Guards, Outcome, Run, Sample, new_contained


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
        return _ProcRun(new_contained((), self.guards(max_processes)), proctree.forks_so_far())

    def home(self) -> Run | None:
        return None

    def for_runs(self, memory_mib: int, max_processes: int) -> AbstractContextManager[Containment]:
        return nullcontext(self)


# --- psutil --------------------------------------------------------------------------------------------------


@dataclass
class _PortableRun(_Polled):
    contained: Contained
    root: psutil.Process | None = None
    known: dict[int, psutil.Process] = field(default_factory=dict)  # every process seen in the tree
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
                    cpu += (
                        times.user
                        + times.system
                        + getattr(times, "children_user", 0.0)
                        + getattr(times, "children_system", 0.0)
                    )
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
        return _PortableRun(new_contained((), self.guards(max_processes)))

    def home(self) -> Run | None:
        return None

    def for_runs(self, memory_mib: int, max_processes: int) -> AbstractContextManager[Containment]:
        return nullcontext(self)


def _polled_peak(polled: int, reaped: int, starter_rss: int) -> int:
    """Peak memory without a control group. ru_maxrss also counts the child's copy of its starter before exec,
    so it is the submission's own peak only when it is above the starter's RSS; else trust the polled peak."""
    return max(polled, reaped) if reaped > starter_rss * 1.05 else polled
