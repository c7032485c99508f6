"""A run's control group on this machine's cgroup hierarchies: what `RunGroup.kill_all` leaves behind and how
long it waits, and which groups a judge's sweep of stale ones removes.

The runner tests (test_execute.py) judge programs end to end; this one holds open a window they hit only by
chance: a group whose last process leaves on its own while the judge is killing the group.
"""

from __future__ import annotations

import os
import signal
import time
from collections.abc import Iterator

import pytest

from judge.runner.containment import cgroups, run_group, stale_groups
from judge.runner.containment.choice import choose_containment

MIB = 1024 * 1024


@pytest.fixture
def frozen_capable_group() -> Iterator[run_group.RunGroup]:
    group = cgroups.create(64 * MIB, 8)
    if group is None or group.version != 1 or "freezer" not in group.dirs:
        if group is not None:
            group.remove()
        pytest.skip("needs a cgroup v1 freezer hierarchy this process can make groups in")
    yield group
    group.remove()


@pytest.fixture
def any_group() -> Iterator[run_group.RunGroup]:
    group = cgroups.create(64 * MIB, 8)
    if group is None:
        pytest.skip("needs a cgroup hierarchy this process can make groups in")
    yield group
    group.remove()


def _zombie_in(group: run_group.RunGroup) -> int:
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


def test_a_group_whose_last_process_left_on_its_own_is_not_left_frozen(
    frozen_capable_group: run_group.RunGroup, monkeypatch: pytest.MonkeyPatch
) -> None:
    """kill_all freezes a group that lists a process, then finds no process to kill: the last one has just
    exited. The group must come out thawed, since a group reused from run to run is joined next by the launcher,
    which a frozen group would freeze for good (a JE for every later test, and a process no one can kill)."""
    group = frozen_capable_group
    pid = _zombie_in(group)
    # kill_all's first look still listed it; the freezer's look, an instant later, lists nothing
    monkeypatch.setattr(type(group), "_holds_only_zombies", lambda self: False)
    try:
        assert _state(pid) == "Z"
        assert not group.is_empty() and group.pids() == []  # the window, held open by the zombie
        group.kill_all()
        assert (group.dirs["freezer"] / "freezer.state").read_text().strip() == "THAWED"
    finally:
        os.waitpid(pid, 0)


def test_a_group_that_holds_only_zombies_is_neither_frozen_nor_killed(
    any_group: run_group.RunGroup, monkeypatch: pytest.MonkeyPatch
) -> None:
    """After a compile step in a box, bwrap has returned and its PID 1 waits for the machine's init to reap it:
    the group counts a process but lists none. No signal reaches a zombie and none forks, so kill_all leaves at
    once (freezing, killing and waiting took 0.8-1.7 ms of every compile step in a box)."""
    group = any_group
    writes: list[tuple[str, str, str]] = []
    real_set = run_group.RunGroup._set
    monkeypatch.setattr(
        type(group),
        "_set",
        lambda self, role, name, value: writes.append((role, name, value)) or real_set(self, role, name, value),
    )
    monkeypatch.setattr(run_group, "kill_each", lambda pids: pytest.fail(f"killed {pids}"))
    pid = _zombie_in(group)
    try:
        assert _state(pid) == "Z" and not group.is_empty() and group.pids() == []
        group.kill_all()
        assert writes == []
    finally:
        os.waitpid(pid, 0)


def test_a_group_whose_listing_cannot_be_read_is_killed_as_one_that_may_hold_anything(
    any_group: run_group.RunGroup, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Only a listing actually read as empty means zombies: one that fails (the judge out of descriptors) must
    not spare live processes from the kill."""
    group = any_group
    killed: list[bool] = []
    monkeypatch.setattr(type(group), "_await_none_listed", lambda self: killed.append(True))
    pid = _zombie_in(group)
    try:
        monkeypatch.setattr(run_group, "read_small", lambda path: (_ for _ in ()).throw(OSError(24, "EMFILE")))
        group.kill_all()
        assert killed == [True]
    finally:
        os.waitpid(pid, 0)


def _lingering(monkeypatch: pytest.MonkeyPatch, group: run_group.RunGroup, looks: int | None) -> list[int]:
    """Make `group` list one process for its first `looks` looks (None: for ever), as a killed process that
    waits for a CPU to die does; returns the kills sent to it."""
    kills: list[int] = []
    monkeypatch.setattr(run_group.time, "sleep", lambda seconds: None)  # looks, not seconds
    monkeypatch.setattr(run_group, "await_any_exit", lambda pids, timeout: None)  # 4242 may be a real process
    # On the class: a record has no room for an attribute of its own (the group is the test's only one).
    monkeypatch.setattr(type(group), "is_empty", lambda self: False)
    monkeypatch.setattr(type(group), "pids", lambda self: [4242] if looks is None or len(kills) < looks else [])
    monkeypatch.setattr(type(group), "_holds_only_zombies", lambda self: False)
    monkeypatch.setattr(run_group, "kill_each", lambda pids: kills.extend(pids))
    return kills


def test_a_killed_group_is_waited_for_until_it_lists_no_process(
    any_group: run_group.RunGroup, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Under load a killed process can wait long for a CPU to die on: kill_all waits for it, looking again and
    again (the wait once ended at a hundred looks)."""
    kills = _lingering(monkeypatch, any_group, 500)
    any_group.kill_all()
    assert len(kills) == 500


def test_a_process_that_never_dies_does_not_hold_the_judge_for_ever(
    any_group: run_group.RunGroup, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(run_group, "KILLED_SECONDS", 0.05)
    kills = _lingering(monkeypatch, any_group, None)
    any_group.kill_all()
    assert kills


def test_the_sweep_removes_only_groups_whose_judge_is_gone_in_its_own_pid_namespace() -> None:
    """Issue 44, item 7: a sweep that looked for a group's pid in its own /proc took a live judge of another PID
    namespace for a dead one, and removed its groups while they held no process (a correct program's JE: the
    launcher could not go back to its removed home group). Of three groups named with a pid that is gone here,
    only the one made in this namespace is a dead judge's; a live judge's group is kept whatever it holds."""
    live = cgroups.create(None, None)
    if live is None:
        pytest.skip("needs a control group this process can make")
    parents = tuple(dict.fromkeys(folder.parent for folder in live.dirs.values()))
    gone = os.fork()
    if gone == 0:
        os._exit(0)
    os.waitpid(gone, 0)
    ours = os.stat("/proc/self/ns/pid").st_ino
    names = {
        "a dead judge's, this namespace": f"judge-{gone}-{ours}-{os.urandom(6).hex()}",
        "another namespace's judge's": f"judge-{gone}-{ours + 1}-{os.urandom(6).hex()}",
        "an earlier judge's, no namespace": f"judge-{gone}-{os.urandom(6).hex()}",
    }
    made = [parent / name for parent in parents for name in names.values()]
    for folder in made:
        folder.mkdir()
    try:
        stale_groups.sweep(parents)
        left = {what: [(parent / name).exists() for parent in parents] for what, name in names.items()}
        assert left == {
            "a dead judge's, this namespace": [False] * len(parents),
            "another namespace's judge's": [True] * len(parents),
            "an earlier judge's, no namespace": [True] * len(parents),
        }
        assert all(folder.exists() for folder in live.dirs.values())
    finally:
        for folder in made:
            if folder.exists():
                folder.rmdir()
        live.remove()


@pytest.mark.skipif(cgroups.probe() != "cgroup v1", reason="a control group is reused from run to run on v1 only")
def test_a_reused_group_hands_its_join_files_open_run_after_run() -> None:
    """A launcher is handed the reused group's `tasks` files open, the same for every run (no four opens a test),
    and they close with the group."""
    with choose_containment("cgroup").for_runs(64, 8) as runs:
        first = runs.open(64, 8)
        first.close()
        second = runs.open(64, 8)
        second.close()
        joins = second.contained.join_descriptors
        assert joins and joins == first.contained.join_descriptors
        named = [os.readlink(f"/proc/self/fd/{descriptor}") for descriptor in joins]
        assert named == [str(path) for path in second.contained.join_files]
        assert all(path.endswith("/tasks") for path in named)
    for descriptor in joins:
        with pytest.raises(OSError):
            os.fstat(descriptor)


@pytest.mark.skipif(cgroups.probe() != "cgroup v1", reason="v1 has a folder per controller to join")
def test_the_folder_that_counts_cpu_time_is_joined_last() -> None:
    """A launcher hopping into a run's group is charged to the run from its move into the CPU-counting folder
    on (launcher/server.py `_join`): every other move comes before it."""
    group = cgroups.create(64 * MIB, 8)
    assert group is not None
    try:
        joins = group.join_files()
        assert joins[-1] == group.dirs["cpu"] / "tasks" and len(joins) == len(set(group.dirs.values()))
    finally:
        group.remove()


@pytest.mark.skipif(cgroups.probe() != "cgroup v1", reason="a control group is reused from run to run on v1 only")
def test_a_reused_groups_limit_is_written_only_when_it_changes(monkeypatch: pytest.MonkeyPatch) -> None:
    """A reused group's limit is set before every run (its residue differs): the same limit twice is one write."""
    group = cgroups.create(64 << 20, 8)
    assert group is not None
    try:
        written: list[tuple[str, str]] = []
        monkeypatch.setattr(run_group.RunGroup, "_set", lambda self, role, name, value: written.append((name, value)))
        group.set_memory_limit(80 << 20)
        first = list(written)
        group.set_memory_limit(80 << 20)
        assert first and written == first
        group.set_memory_limit(72 << 20)
        assert [value for _, value in written[len(first):]] == [str(72 << 20)] * len(first)
        monkeypatch.undo()
        group.set_memory_limit(96 << 20)
        limit = (group.dirs["memory"] / "memory.limit_in_bytes").read_text()
        assert int(limit) == 96 << 20
    finally:
        group.remove()


def test_the_wait_for_a_killed_process_ends_when_it_exits_not_at_the_timeout() -> None:
    """`await_any_exit` wakes on the process's end (its pidfd), so a killed group is looked at again as soon as
    its last process has left, not a fixed pause later; a pid already gone returns at once. The wait's own
    timeout is an hour: an alarm ends the test long before, should the end not wake it."""

    def not_woken(signum: int, frame: object) -> None:
        raise AssertionError("await_any_exit slept on after the process had ended")

    child = os.fork()
    if child == 0:
        os.execv("/bin/sleep", ["sleep", "3600"])
    previous = signal.signal(signal.SIGALRM, not_woken)
    signal.alarm(60)
    try:
        os.kill(child, signal.SIGKILL)
        run_group.await_any_exit([child], 3600.0)
        assert _state(child) == "Z"
        os.waitpid(child, 0)
        run_group.await_any_exit([child], 3600.0)  # reaped: no such process any more
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)
        try:
            os.kill(child, signal.SIGKILL)
            os.waitpid(child, 0)
        except (ProcessLookupError, ChildProcessError):
            pass
