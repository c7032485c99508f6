"""Run groups that judges which died mid-run (SIGKILL, a killed Dask worker) left behind: how a run group is named
so that its judge can be found, and the sweep that removes the groups of judges that are gone."""

from __future__ import annotations

import functools
import os
from pathlib import Path

from judge.runner.containment import v2_base
from judge.runner.containment.run_group import kill_each, read_small, write_small


def sweep(parents: tuple[Path, ...]) -> None:
    """Remove run groups left by judge processes that died mid-run (SIGKILL, a killed Dask worker).

    Only the groups this PID namespace's judges made (`group_name`), and only once the kernel says their judge is gone
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
                    write_small(folder / "freezer.state", "THAWED")
                kill_each(
                    int(pid)
                    for pid in (
                        read_small(folder / "cgroup.procs").split() if (folder / "cgroup.procs").exists() else []
                    )
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


def group_name(random: str) -> str:
    """A run group's name: `judge-<pid>-<PID namespace>-<random>`, the judge that made it and the namespace its pid
    is counted in, for the sweep (`sweep`). Random, not counted: in a warm box a test sees its group's name
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
def sweep_once(parents: tuple[Path, ...]) -> None:
    """`sweep`, once per process and set of parents."""
    sweep(parents)
