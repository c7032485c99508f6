"""How long a run's tree has been ready to run but waiting for a CPU: the time the wall-clock backstop must not
count (execute.py). On cgroup v2 the kernel keeps it per group (the "some" line of the group's cpu.pressure: the
time at least one of its tasks was runnable and not running); elsewhere each live thread's scheduler run delay
(/proc/<pid>/task/<tid>/schedstat, its second field) is summed over the tree. Read only when a run reaches its
wall limit, so a run that does not costs nothing. Kept apart from cgroups.py, which does not need it."""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path

_GONE = (FileNotFoundError, ProcessLookupError)


def group_pressure_seconds(folder: Path) -> float | None:
    """The cgroup v2 group's CPU pressure so far ("some" total), in seconds; None without PSI (a kernel built
    without it, or started with psi=0: the file is missing or refuses reads)."""
    try:
        text = (folder / "cpu.pressure").read_text()
    except OSError:
        return None
    for line in text.splitlines():
        if line.startswith("some "):
            for pair in line.split()[1:]:
                key, _, value = pair.partition("=")
                if key == "total" and value.isdigit():
                    return int(value) / 1e6
    return None


def tree_run_delay_seconds(pids: Iterable[int]) -> float | None:
    """The scheduler run delay of every live thread of `pids`, summed, in seconds; None where the kernel keeps no
    schedstat (CONFIG_SCHED_INFO off). A process that already exited took its delay with it: a lower bound."""
    total, seen = 0, False
    for pid in pids:
        try:
            threads = os.listdir(f"/proc/{pid}/task")
        except _GONE:
            continue
        for thread in threads:
            try:
                with open(f"/proc/{pid}/task/{thread}/schedstat", "rb") as handle:
                    fields = handle.read().split()
            except _GONE:
                continue
            if len(fields) >= 2:
                total, seen = total + int(fields[1]), True
    if not seen and not os.path.exists("/proc/self/schedstat"):
        return None
    return total / 1e9
