"""A judging gone slow gives way: from a moment on, its programs run at a lower CPU priority (judge serve's slow
lane, batch/executors/lanes.py), so that a fresh submission sharing a core with it gets most of that core.

Why a verdict does not change: CPU time counts only while a program runs, whatever its priority, and the wall
backstop leaves out the time it waited for a CPU (waiting.py). At GIVE_WAY_NICENESS a program sharing a core with
one program of normal priority gets about a quarter of it (CFS weights 335 against 1024), with two about a
seventh: a run within its CPU limit C then takes at most about 7 C of wall time, under runner/execute.py's
WAITING_CEILING (4 x a wall limit of at least 2 C + 1 s), past which waiting would count.

The scheduler weighs a thread against others at three levels, and each needs its own lowering:
- a thread's niceness, against the threads of its own group. Linux gives each thread its own, and a new thread or
  process inherits its creator's: every thread of every process of the run is lowered, at each look, so one
  forked meanwhile is lowered at the next. A program cannot raise itself back (that needs CAP_SYS_NICE, which
  no run has). So a program that sets its own niceness can be refused (EPERM) in the instant it is lowered:
  nice() reads it and then sets it, and a lowering between the two makes the setting a raise (measured: about 1
  lowering in 6 of a loop of nothing but nice(0), 1 in 100 of one that also reads its CPU time). Left so: no
  program that leaves its niceness alone sees it, and the cure, an RLIMIT_NICE that lets a run take its niceness
  back, needs CAP_SYS_RESOURCE, which a judge not run as root lacks;
- its session's autogroup (kernel.sched_autogroup_enabled, on by default), against other sessions: each run
  leads a session of its own, so the runs of two judgings compete as autogroups, whose niceness is the
  /proc/<pid>/autogroup file's. The judge's own autogroup is never lowered. A program may set its own back to 0
  (never lower: that needs CAP_SYS_NICE); the next look lowers it again;
- its control group, where the cpu controller is on (cgroup v2): `RunGroup.give_way` lowers its cpu.weight.
Where /proc is missing (macOS), each process is lowered as a whole.
"""

from __future__ import annotations

import os
from collections.abc import Iterable

GIVE_WAY_NICENESS = 5


def give_way(pids: Iterable[int]) -> None:
    """Lower every thread of the processes `pids`, and their sessions' autogroups, to GIVE_WAY_NICENESS (one already
    lower is left alone). A process gone meanwhile, or not the judge's to lower, is skipped: giving way is a
    courtesy, never a failure."""
    own_autogroup = _autogroup(os.getpid())
    for pid in pids:
        try:
            threads = [int(name) for name in os.listdir(f"/proc/{pid}/task")]
        except OSError:
            threads = [pid]
        for thread in threads:
            try:
                if os.getpriority(os.PRIO_PROCESS, thread) < GIVE_WAY_NICENESS:
                    os.setpriority(os.PRIO_PROCESS, thread, GIVE_WAY_NICENESS)
            except OSError:
                continue
        autogroup = _autogroup(pid)
        if autogroup is not None and autogroup != own_autogroup and autogroup[1] < GIVE_WAY_NICENESS:
            try:
                with open(f"/proc/{pid}/autogroup", "w") as handle:
                    handle.write(str(GIVE_WAY_NICENESS))
            except OSError:
                continue


def _autogroup(pid: int) -> tuple[str, int] | None:
    """The autogroup of process `pid` and its niceness ("/autogroup-42 nice 0"); None without autogroups."""
    try:
        with open(f"/proc/{pid}/autogroup") as handle:
            name, _, nice = handle.read().split()
        return name, int(nice)
    except (OSError, ValueError):
        return None
