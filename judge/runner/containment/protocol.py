"""How a run's process tree is contained and measured: one interface, one implementation per mechanism.

`execute.run` asks a `Containment` for a `Contained` per run and then only reads start → watch → kill → facts
from it. The mechanisms, best first:

- `cgroup v2` / `cgroup v1`: the kernel counts CPU time, peak memory and processes of the whole tree exactly
  and kills it whole (cgroups.py, run_group.py); a process joins by writing "0" to the group's `join_files`.
- `proc`: Linux without a control group: the tree is found through /proc (proctree.py), CPU and RSS are
  polled, RLIMIT_AS caps each process's memory and RLIMIT_NPROC the processes.
- `portable`: psutil and the standard library only, for machines without /proc or cgroups (macOS, a student's
  laptop): the tree's CPU time and RSS polled, the tree killed. It cannot stop a fork bomb or a process that
  leaves the tree before it is seen; `--require-sandbox` refuses to run without a real sandbox.

This module is the interface and its records; the mechanisms are cgroup.py and polled.py beside it, and
choice.py picks the best one this machine has, or the one asked for by name (`--containment`).
"""

from __future__ import annotations

import os
import signal
from contextlib import AbstractContextManager
from pathlib import Path
from typing import Protocol

from msgspec import Struct

RUN_TOKEN_VARIABLE = "JUDGE_RUN_TOKEN"
"""The environment variable each run carries its `Contained.token` in (proctree.py finds escaped processes by it)."""


class Sample(Struct, frozen=True):
    """One look at a running tree: CPU seconds so far and resident bytes now (0 where the kernel caps memory)."""

    cpu_seconds: float
    rss_bytes: int


class Guards(Struct, frozen=True):
    """The per-process rlimits a mechanism needs where it cannot count the tree itself."""

    limit_address_space: bool  # RLIMIT_AS per process: nothing else caps memory
    max_tasks: int | None  # RLIMIT_NPROC to set, or None where a pids limit counts exactly


class Contained(Struct, frozen=True):
    """What a run's first process must do or carry before exec, decided by the mechanism."""

    join_files: tuple[Path, ...]  # write "0" to each to join the run's group
    guards: Guards
    token: str  # in the run's environment, so an escaped process can still be recognised
    join_descriptors: tuple[int, ...] = ()
    """The join files open for writing, owned by the group (closed with it), where it keeps them: a launcher is
    handed these, not files opened anew for each run (four `tasks` files on cgroup v1, 20-40 µs an open)."""


def new_contained(join_files: tuple[Path, ...], guards: Guards, join_descriptors: tuple[int, ...] = ()) -> Contained:
    """A run's `Contained`, with a token of its own (random: a counter would tell a run which one it is)."""
    return Contained(join_files, guards, os.urandom(16).hex(), join_descriptors)


class Outcome(Struct, frozen=True):
    """What the mechanism measured of a finished run."""

    cpu_seconds: float
    peak_bytes: int
    hit_memory_limit: bool
    hit_process_limit: bool


class Run(Protocol):
    """One run's containment, from before the start to after the last process is gone."""

    contained: Contained

    def started(self, pid: int | None) -> None:
        """The run's first process exists: its pid as the judge sees it, None where the judge is not told it (in
        a box's own PID namespace, or from a launcher into a control group: only a group can follow a run
        there)."""

    def sample(self) -> Sample: ...

    def waiting_seconds(self) -> float | None:
        """Seconds the run's tree has so far spent ready to run but waiting for a CPU (waiting.py); None where
        this mechanism cannot tell. Asked only when the run reaches its wall limit."""

    def give_way(self) -> None:
        """Lower the CPU priority of every process of the run (priority.py): its judging has gone slow."""

    def kill(self) -> None:
        """SIGKILL every process of the run, including ones forking meanwhile."""

    def outcome(self, reaped_cpu: float, reaped_peak: int, starter_rss: int) -> Outcome:
        """The facts after the run. `reaped_*` come from the first process's rusage; `starter_rss` is the RSS
        of the process that forked it (its copy of that process before exec is not the submission's)."""

    def emptied(self) -> bool:
        """Every process of the run is known to be gone, after `kill` (only a control group can tell: a polled
        tree may hide a process that left it). What the run held open may then be given to the next run."""

    def close(self) -> None:
        """Release what the run held (a control group); also after an interruption."""


class Containment(Protocol):
    @property
    def name(self) -> str: ...

    @property
    def uses_groups(self) -> bool:
        """A control group per run: it follows a run into a box's own PID namespace."""
        ...

    def guards(self, max_processes: int) -> Guards: ...

    def open(self, memory_mib: int, max_processes: int) -> Run: ...

    def home(self) -> Run | None:
        """A group without limits for a launcher to live in between runs, where the mechanism has groups."""

    def for_runs(self, memory_mib: int, max_processes: int) -> AbstractContextManager[Containment]:
        """The containment for many runs in a row under the same limits (a submission's tests): one control
        group reused from run to run where the kernel can start its counters again, else this one itself."""


def kill_process_group(pid: int) -> None:
    """SIGKILL the process group `pid` leads (every run starts its own session), if it still exists."""
    try:
        os.killpg(pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError, AttributeError):
        pass
