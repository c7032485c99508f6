"""The `cgroup` containment (v2 or v1, whichever this machine mounts): the kernel counts CPU time, peak memory and
processes of a run's whole tree and kills it whole (cgroups.py makes the group, run_group.py is the group). On v1 a
submission's tests share one group (`_ReusedGroup`)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager

from msgspec import Struct, field

from judge.runner.containment import cgroups, priority, run_group, waiting
from judge.runner.containment.protocol import Contained, Containment, Guards, Outcome, Run, Sample, new_contained
from judge.runner.limits import MIB

RESIDUE_LIMIT_BYTES = 4 * MIB  # what a reused control group may keep charged from earlier runs (see _ReusedGroup)
REUSED_GROUPS = 2  # a run and the next test's, begun while it goes on


class _CgroupRun(Struct):
    group: run_group.RunGroup
    contained: Contained
    before: run_group.Counters  # what the group had counted before this run (nothing, in a fresh group)
    release: Callable[[run_group.RunGroup], None]  # after the run: remove the group, or give it back

    def started(self, pid: int | None) -> None:
        self.group.reset_peak()

    def sample(self) -> Sample:
        return Sample(self.group.cpu_seconds() - self.before.cpu_seconds, 0)

    def waiting_seconds(self) -> float | None:
        """v2: the group's CPU pressure (a fresh group per run: all of it is this run's); v1, or v2 without PSI:
        the run delay of the group's live threads."""
        if self.group.version == 2:
            pressure = waiting.group_pressure_seconds(self.group.dirs["cpu"])
            if pressure is not None:
                return pressure
        return waiting.tree_run_delay_seconds(self.group.pids())

    def give_way(self) -> None:
        priority.give_way(self.group.pids())
        self.group.give_way()

    def kill(self) -> None:
        self.group.kill_all()

    def outcome(self, reaped_cpu: float, reaped_peak: int, starter_rss: int) -> Outcome:
        after, before = self.group.counters(), self.before
        return Outcome(
            max(reaped_cpu, after.cpu_seconds - before.cpu_seconds),
            max(0, self.group.peak_bytes() - before.charged_bytes),
            after.memory_refusals > before.memory_refusals,
            after.process_refusals > before.process_refusals,
        )

    def emptied(self) -> bool:
        return self.group.is_empty()

    def close(self) -> None:
        self.release(self.group)


class CgroupContainment(Struct, frozen=True):
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

    def new_group(self, memory_bytes: int | None, max_processes: int | None) -> run_group.RunGroup:
        group = cgroups.create(memory_bytes, max_processes)
        if group is None:
            raise OSError(f"the judge could no longer create a {self.name} control group")
        return group

    def run_in(
        self,
        group: run_group.RunGroup,
        before: run_group.Counters = run_group.NOTHING_COUNTED,
        release: Callable[[run_group.RunGroup], None] = run_group.RunGroup.remove,
        reused: bool = False,
    ) -> Run:
        """A run in `group`, which had counted `before` already; `release` is what its close does. A `reused`
        group hands its join files open, to be written run after run."""
        joins = group.join_descriptors() if reused else ()
        return _CgroupRun(group, new_contained(group.join_files(), self.guards(0), joins), before, release)


class _ReusedGroup(Struct):
    """Cgroup v1 groups for a submission's tests, used run after run: a fresh group costs about 0.8 ms per test
    (four folders made and removed, their limits written, their files opened). Up to REUSED_GROUPS of them, as
    many as runs go on at once (the next test's begun while one goes on: runner/execute.py's `begin`).

    Each run still counts and gets what a fresh group would give it. Before it starts, the group's counters
    are read and the run is what they count after (CPU time, refused charges and forks); its peak starts again
    from what is charged then, which is subtracted, and its memory limit is raised by as much. (The kernel
    charges memory in per-CPU batches of 64 pages, so a peak may come out up to ~0.5 MiB under a fresh group's.)
    What stays charged between runs is the kernel's cache of what earlier runs touched (their output files
    are replaced first); a group holding more than RESIDUE_LIMIT_BYTES, or still holding a process after its run,
    is replaced by a fresh one. A run in the box never sees the group's files (no /sys there).
    """

    fresh: CgroupContainment
    memory_bytes: int
    max_processes: int
    idle: list[run_group.RunGroup] = field(default_factory=list)  # groups no run is in, to use again
    busy: int = 0  # groups a run is in now
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
        other_limits = (memory_mib * MIB, max_processes) != (self.memory_bytes, self.max_processes)
        if other_limits or (not self.idle and self.busy >= REUSED_GROUPS):
            return self.fresh.open(memory_mib, max_processes)
        group = self.idle.pop() if self.idle else None
        before = group.counters() if group is not None else None
        if group is None or before is None or before.charged_bytes > RESIDUE_LIMIT_BYTES:
            if group is not None:
                group.remove()
            group = self.fresh.new_group(self.memory_bytes, self.max_processes)
            before = run_group.NOTHING_COUNTED
        else:
            group.set_memory_limit(self.memory_bytes + before.charged_bytes)
        self.busy += 1
        return self.fresh.run_in(group, before, self._release, reused=True)

    def _release(self, group: run_group.RunGroup) -> None:
        self.busy -= 1
        if group.is_empty():
            self.idle.append(group)
        else:
            group.remove()

    def close(self) -> None:
        while self.idle:
            self.idle.pop().remove()
