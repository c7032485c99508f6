"""The containments without a control group, whose runs are polled: `proc` (Linux: the tree found through /proc,
proctree.py, with RLIMIT_AS and RLIMIT_NPROC per process, and its tasks counted at every poll) and `portable`
(psutil and the standard library only, for macOS or a laptop without /proc: no process limit, so it cannot stop a
fork bomb). Both kill a tree the same way (proctree.stop_then_kill)."""

from __future__ import annotations

import sys
from collections.abc import Callable
from contextlib import AbstractContextManager, nullcontext
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import psutil  # imported where used: only the portable mechanism needs it

from msgspec import Struct, field

from judge.errors import JudgeFailure
from judge.runner.containment import priority, proctree, waiting
from judge.runner.containment.protocol import Contained, Containment, Guards, Outcome, Run, Sample, new_contained


class _Polled:
    """The facts of a run whose CPU time and peak memory were polled (no group counts them, or limits)."""

    cpu: float
    peak: int
    hit_process_limit = False

    def outcome(self, reaped_cpu: float, reaped_peak: int, starter_rss: int) -> Outcome:
        peak = _polled_peak(self.peak, reaped_peak, starter_rss)
        return Outcome(max(reaped_cpu, self.cpu), peak, False, self.hit_process_limit)

    def emptied(self) -> bool:
        return False

    def close(self) -> None:
        return None


class _ProcRun(_Polled, Struct):
    """A run followed through /proc. Its process limit is the poll's: past `max_processes` tasks (processes and
    their threads, as a pids limit counts them) the poll kills the tree and the run is RE, as under a control
    group. RLIMIT_NPROC alone cannot be that limit: the kernel exempts root from it, and for another user it
    counts all of that user's tasks (so it is set to those plus the allowance, and still refuses forks there)."""

    contained: Contained
    forks_before: int
    max_processes: int
    spawned: proctree.Spawned | None = None
    cpu: float = 0.0
    peak: int = 0
    hit_process_limit: bool = False

    def started(self, pid: int | None) -> None:
        if pid is None:
            raise JudgeFailure("a run in a box's own PID namespace needs a control group to be followed")
        self.spawned = proctree.Spawned(pid, self.forks_before, self.contained.token)

    def sample(self) -> Sample:
        if self.spawned is None:
            return Sample(self.cpu, 0)
        members = self.spawned.members()
        cpu, rss = self._seen(members)
        if self.hit_process_limit:
            self.kill()
        return Sample(cpu, rss)

    def waiting_seconds(self) -> float | None:
        if self.spawned is None:
            return None
        return waiting.tree_run_delay_seconds(self.spawned.members())

    def give_way(self) -> None:
        if self.spawned is not None:
            priority.give_way(self.spawned.members())

    def kill(self) -> None:
        if self.spawned is not None:
            self.spawned.kill(self._seen)

    def _seen(self, members: dict[int, list[bytes]]) -> tuple[float, int]:
        """Take in one look at the tree: its CPU time and RSS, and whether it holds more tasks than allowed. The
        kill's looks count too: its last look before the SIGKILLs sees the whole tree stopped, CPU time and all."""
        cpu, rss = proctree.usage(members)
        self.cpu, self.peak = max(self.cpu, cpu), max(self.peak, rss)
        self.hit_process_limit = self.hit_process_limit or proctree.tasks(members) > self.max_processes
        return cpu, rss


class ProcContainment(Struct, frozen=True):
    """Linux without a control group: /proc polling, RLIMIT_AS and RLIMIT_NPROC."""

    name: str = "proc"
    uses_groups: bool = False

    def guards(self, max_processes: int) -> Guards:
        # RLIMIT_NPROC counts every task of the user, so it is the tasks on the machine now plus the allowance
        # (a plain allowance would fail a thread start of a user who already runs that many: a desktop, a JVM).
        return Guards(limit_address_space=True, max_tasks=proctree.tasks_now() + max_processes)

    def open(self, memory_mib: int, max_processes: int) -> Run:
        return _ProcRun(new_contained((), self.guards(max_processes)), proctree.forks_so_far(), max_processes)

    def home(self) -> Run | None:
        return None

    def for_runs(self, memory_mib: int, max_processes: int) -> AbstractContextManager[Containment]:
        return nullcontext(self)


# --- psutil --------------------------------------------------------------------------------------------------


class _PortableRun(_Polled, Struct):
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

    def waiting_seconds(self) -> float | None:
        return None  # psutil has no run delay; the judging runs a wall TLE again instead (judging/case.py)

    def give_way(self) -> None:
        priority.give_way(process.pid for process in self._tree())

    def kill(self) -> None:
        proctree.stop_then_kill(self._states, self._send("suspend"), self._send("kill"))

    def _states(self) -> dict[int, str]:
        """The tree's processes seen so far that still exist, with their states as /proc's letters."""
        import psutil

        letters = {psutil.STATUS_STOPPED: "T", psutil.STATUS_TRACING_STOP: "t", psutil.STATUS_ZOMBIE: "Z"}
        letters[psutil.STATUS_DEAD] = "X"
        states = {}
        for process in self._tree():
            try:
                states[process.pid] = letters.get(process.status(), "R")
            except psutil.Error:
                continue
        return states

    def _send(self, action: str) -> Callable[[int], None]:
        """`action` (suspend, kill) on a process of the tree by pid, if it still exists."""
        import psutil

        def send(pid: int) -> None:
            try:
                getattr(self.known[pid], action)()
            except psutil.Error:
                pass

        return send


class PortableContainment(Struct, frozen=True):
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
