"""A run's control group on this machine's cgroup v1 hierarchies: what `RunGroup.kill_all` leaves behind.

The runner tests (test_execute.py) judge programs end to end; this one holds open a window they hit only by
chance: a group whose last process leaves on its own while the judge is killing the group.
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterator

import pytest

from judge.runner.containment import cgroups

MIB = 1024 * 1024


@pytest.fixture
def frozen_capable_group() -> Iterator[cgroups.RunGroup]:
    group = cgroups.create(64 * MIB, 8)
    if group is None or group.version != 1 or "freezer" not in group.dirs:
        if group is not None:
            group.remove()
        pytest.skip("needs a cgroup v1 freezer hierarchy this process can make groups in")
    yield group
    group.remove()


def _zombie_in(group: cgroups.RunGroup) -> int:
    """A child that joins `group` and exits, left unreaped: pids.current still counts it, cgroup.procs no
    longer lists it."""
    pid = os.fork()
    if pid == 0:
        for path in group.join_files():
            descriptor = os.open(path, os.O_WRONLY)
            os.write(descriptor, b"0")
            os.close(descriptor)
        os._exit(0)
    deadline = time.monotonic() + 10
    while _state(pid) != "Z" and time.monotonic() < deadline:
        time.sleep(0.01)
    return pid


def _state(pid: int) -> str:
    with open(f"/proc/{pid}/stat") as stat:
        return stat.read().rsplit(")", 1)[1].split()[0]


def test_a_group_whose_last_process_left_on_its_own_is_not_left_frozen(frozen_capable_group: cgroups.RunGroup) -> None:
    """kill_all freezes a group that is not empty, then finds no process to kill: the last one has just exited.
    The group must come out thawed, since a group reused from run to run is joined next by the launcher, which
    a frozen group would freeze for good (a JE for every later test, and a process no one can kill)."""
    group = frozen_capable_group
    pid = _zombie_in(group)
    try:
        assert _state(pid) == "Z"
        assert not group.is_empty() and group.pids() == []  # the window, held open by the zombie
        group.kill_all()
        assert (group.dirs["freezer"] / "freezer.state").read_text().strip() == "THAWED"
    finally:
        os.waitpid(pid, 0)
