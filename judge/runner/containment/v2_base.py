"""Where the judge makes its run groups on cgroup v2, and why it cannot when it cannot.

v2's no-internal-process rule: a group other than the root may enable controllers for its children only while it
holds no process itself. The judge's own group (a login's session-N.scope, a service's group, a group delegated
to a user, a container's group) holds the judge, so run groups cannot simply go under it. The judge therefore
makes a group it has to itself the parent of its run groups, after moving itself into a leaf of it
(`judge-leaf-<pid>`), as runc and isolate's keeper do:

1. the group `JUDGE_CGROUP` names (a path as in /proc/self/cgroup), where someone delegated one;
2. the judge's own group, when it is the host's root (nothing to move) or a leaf an earlier judge made (a Dask
   worker, a launcher: a child of a judge that moved already), or when every process in it is the judge or its
   descendant (a systemd service, `systemd-run --scope`, a container's group seen as the root of its cgroup
   namespace, a delegated group the judge was started in);
3. else (a login shell shares the group: a session scope; a shell waiting for the judge shares a container's), a
   transient scope of its own with `Delegate=yes` that systemd makes on request over D-Bus, as `systemd-run
   --scope -p Delegate=yes` does (`--user` for an ordinary user: Debian 12 and Ubuntu 24.04's user manager
   delegates memory and pids), then as in 2;
4. where no systemd runs (a container's entrypoint, WSL, OpenRC), the judge's own group all the same, its other
   processes moved first into a leaf of it (`judge-init`), as a container runtime's init does before it nests
   groups: they stay under the group and its limits. Never the hierarchy's real root (the machine's init and
   kernel threads live there). A judge started later in `judge-init` makes its run groups beside it.

Only `memory` and `pids` are required of the parent; `cpu` is enabled where it is delegated, since a run's CPU time
comes from `cpu.stat`, which v2 keeps in every group.

A group the judge took is given back as it was found when the judge exits (`give_back`): while the group enables
controllers for its children, v2 lets no process join it (EBUSY), so the next judge, shell or `docker exec` started
in the same service, container or delegated group could not even begin.
"""

from __future__ import annotations

import contextlib
import os
from pathlib import Path

from msgspec import Struct
from msgspec.structs import replace

from judge.runner.containment.v2_delegation import (
    EXPLICIT_VARIABLE,
    NoBase,
    delegation_command,
    delegation_without_systemd,
    own_group,
    refusal,
    systemd_runs,
    systemd_scope,
)

REQUIRED_CONTROLLERS = ("memory", "pids")
OPTIONAL_CONTROLLERS = ("cpu",)
LEAF_PREFIX = "judge-leaf-"
INIT_LEAF = "judge-init"  # where a judge moved the other processes of a group it took without systemd
EVACUATION_ROUNDS = 20  # a process forking while the judge moves it leaves a child behind: moved on the next round


class Base(Struct, frozen=True):
    """The parent of the judge's run groups, with the controllers it enabled for them."""

    folder: Path
    controllers: frozenset[str]
    how: str  # how the judge got it, for `judge doctor`
    turned_on: tuple[str, ...] = ()  # the controllers this process enabled for the children, in that order
    leaf: Path | None = None  # the leaf of `folder` this process made and moved into (`_take`), else None
    evacuated: Path | None = None  # the leaf it moved the group's other processes into (`INIT_LEAF`), else None


def find_base(root: Path) -> Base:
    """The parent of the judge's run groups, set up (see the module's docstring); raises NoBase."""
    group = own_group(root)
    explicit = os.environ.get(EXPLICIT_VARIABLE)
    if explicit:
        named = root / explicit.strip().lstrip("/")
        how = f"named by {EXPLICIT_VARIABLE}"
        return _enable(named, how) if _is_leaf_of(group, named) else _take(named, how)
    if group == root:
        try:
            return _enable(root, "the root group")
        except NoBase as problem:
            if _only_ours(root):
                return _take(root, "the root of the judge's cgroup namespace (a container's group)")
            refused = str(problem)  # a namespace's root shared with others (a shell that waits for the judge)
    elif _is_leaf_of(group, group.parent) and _has_required(group.parent):
        return _enable(group.parent, "a judge's group, this process in a leaf of it")
    elif _only_ours(group):
        return _take(group, "the judge's own group")
    else:
        refused = (
            f"{group} holds processes besides the judge (a login shell's session scope?), so the judge "
            f"cannot make it a parent of run groups (EBUSY: cgroup v2 enables controllers only for a "
            f"group that holds no process)"
        )
    if systemd_runs():
        try:
            scope = systemd_scope(root)
        except NoBase as problem:
            raise NoBase(f"{refused}; and {problem}", problem.fix) from None
        return _take(scope, "a transient scope systemd delegated to the judge")
    if not (group / "cgroup.type").exists():  # only the hierarchy's real root has none
        raise NoBase(f"{refused}; and no systemd here to ask for a scope", delegation_without_systemd(root))
    try:
        return _take(group, f"the judge's group, its other processes moved into {INIT_LEAF}", evacuate=True)
    except NoBase as problem:
        fix = problem.fix if os.geteuid() == 0 else delegation_without_systemd(root)
        raise NoBase(f"{refused}; no systemd here to ask for a scope; and {problem}", fix) from None


def _take(group: Path, how: str, evacuate: bool = False) -> Base:
    """Make `group` the parent of run groups: move the judge (and its descendants in `group`) into a leaf of
    it, with `evacuate` every other process into `INIT_LEAF`, then enable the controllers for its children."""
    if not (group / "cgroup.procs").exists():
        raise NoBase(f"{group} is not a cgroup v2 group")
    _require_controllers(group)  # before anything is moved
    me = os.getpid()
    leaf = group / f"{LEAF_PREFIX}{me}"
    try:
        leaf.mkdir(exist_ok=True)
    except OSError as error:
        raise NoBase(refusal(error, f"creating {leaf}")) from None
    for pid in [me, *(pid for pid in _pids(group) if pid != me and _descends_from_us(pid))]:
        try:
            _write(leaf / "cgroup.procs", str(pid))
        except ProcessLookupError:
            continue  # it exited meanwhile
        except OSError as error:
            _remove_quietly(leaf)
            raise NoBase(refusal(error, f"moving the judge into {leaf}")) from None
    evacuated = group / INIT_LEAF if evacuate else None
    try:
        if evacuated is not None:
            _evacuate(group, evacuated)
        base = _enable(group, how)
    except NoBase:
        if evacuated is not None:  # the others back where they were, as the judge goes back
            _move_all(evacuated, group)
            _remove_quietly(evacuated)
        give_back(Base(group, frozenset(), how, leaf=leaf))  # back where it was, not stranded in a leaf
        raise
    return replace(base, leaf=leaf, evacuated=evacuated)


def _evacuate(group: Path, init: Path) -> None:
    """Move every process left in `group` (the judge's are in its leaf already) into `init`, round after round
    until none is left."""
    try:
        init.mkdir(exist_ok=True)
    except OSError as error:
        raise NoBase(refusal(error, f"creating {init}")) from None
    for _ in range(EVACUATION_ROUNDS):
        pids = _pids(group)
        if not pids:
            return
        for pid in pids:
            try:
                _write(init / "cgroup.procs", str(pid))
            except ProcessLookupError:
                continue  # it exited meanwhile
            except OSError as error:
                raise NoBase(refusal(error, f"moving process {pid} into {init}")) from None
    raise NoBase(f"processes kept appearing in {group} while the judge moved them into {init}")


def _move_all(source: Path, target: Path) -> None:
    """Every process of `source` into `target`, as far as the kernel allows (undoing a move that went half way)."""
    with contextlib.suppress(OSError, NoBase):
        for pid in _pids(source):
            with contextlib.suppress(ProcessLookupError):
                _write(target / "cgroup.procs", str(pid))


def give_back(base: Base) -> None:
    """Leave a group the judge took as it found it (at the judge's exit): the controllers it enabled disabled
    again, the judge back in the group, its leaf removed, so that a process may join the group again.

    Nothing is changed in another process than the one that took it (a forked child inherits the exit handler),
    nor while anything else runs under the group (another judge's leaf, a run or a child of this judge still
    there): disabling `memory` would lift a running group's limit. Processes the judge moved into `INIT_LEAF`
    stay there while they live (the judge cannot know which of them is a judge started there since); the judge
    then joins them and removes its leaf. Best effort, at exit, where a failure has no one to tell: the group
    then stays as the judge used it, its empty leaf swept by a later judge.
    """
    me = os.getpid()
    if base.leaf is None or base.leaf.name != f"{LEAF_PREFIX}{me}":
        return
    with contextlib.suppress(OSError, NoBase):
        if _pids(base.leaf) != [me]:
            return
        if _busy_besides(base.folder, base.leaf):
            if base.evacuated is not None and _pids(base.evacuated):
                _write(base.evacuated / "cgroup.procs", str(me))
                base.leaf.rmdir()
            return
        _disable(base.folder, base.turned_on)
        _write(base.folder / "cgroup.procs", str(me))
        base.leaf.rmdir()
        if base.evacuated is not None:
            base.evacuated.rmdir()


def _disable(group: Path, names: tuple[str, ...] | list[str]) -> None:
    """Disable `names` for `group`'s children, last enabled first."""
    for name in reversed(names):
        _write(group / "cgroup.subtree_control", f"-{name}")


def _busy_besides(group: Path, leaf: Path) -> bool:
    """Whether a process is anywhere under `group` outside `leaf`."""
    for folder, children, _ in os.walk(group):
        if Path(folder) == leaf:
            children.clear()
        elif _pids(Path(folder)):
            return True
    return False


def _is_leaf_of(group: Path, parent: Path) -> bool:
    return group.parent == parent and (group.name.startswith(LEAF_PREFIX) or group.name == INIT_LEAF)


def _remove_quietly(folder: Path) -> None:
    try:
        folder.rmdir()
    except OSError:
        pass  # not empty after all: the stale-group sweep of a later judge removes it


def _require_controllers(group: Path) -> set[str]:
    """The controllers `group` may enable for its children; raises NoBase where memory or pids is not one."""
    available = set(_words(group / "cgroup.controllers"))
    missing = [name for name in REQUIRED_CONTROLLERS if name not in available]
    if missing:
        raise NoBase(
            f"{group} has no {' or '.join(missing)} controller (cgroup.controllers: "
            f"{' '.join(sorted(available)) or 'empty'}): not delegated to it by its parent",
            delegation_command(group),
        )
    return available


def _enable(group: Path, how: str) -> Base:
    """Enable memory and pids (required) and cpu (where delegated) for `group`'s children, one at a time: a
    subtree delegated without cpu refuses all three written together (ENOENT)."""
    available = _require_controllers(group)
    enabled = set(_words(group / "cgroup.subtree_control"))
    turned_on: list[str] = []
    for name in (*REQUIRED_CONTROLLERS, *OPTIONAL_CONTROLLERS):
        if name in enabled or name not in available:
            continue
        try:
            _write(group / "cgroup.subtree_control", f"+{name}")
            turned_on.append(name)
        except OSError as error:
            if name in REQUIRED_CONTROLLERS:
                with contextlib.suppress(OSError):  # half enabled, the group would refuse a process all the same
                    _disable(group, turned_on)
                raise NoBase(refusal(error, f"enabling {name} in {group}/cgroup.subtree_control")) from None
    return Base(group, frozenset(enabled | set(turned_on)), f"{group} ({how})", tuple(turned_on))


def _only_ours(group: Path) -> bool:
    """Every process in `group` is this one or a descendant of it."""
    return all(_descends_from_us(pid) for pid in _pids(group))


def _descends_from_us(pid: int) -> bool:
    """Whether `pid` is this process or one of its descendants."""
    me = os.getpid()
    while pid > 1:
        if pid == me:
            return True
        try:
            with open(f"/proc/{pid}/stat", "rb") as handle:
                text = handle.read()
        except OSError:
            return False
        pid = int(text[text.rindex(b")") + 2 :].split()[1])
    return pid == me


def _has_required(group: Path) -> bool:
    return set(REQUIRED_CONTROLLERS) <= set(_words(group / "cgroup.subtree_control"))


def _pids(group: Path) -> list[int]:
    try:
        return [int(pid) for pid in (group / "cgroup.procs").read_text().split()]
    except OSError as error:
        raise NoBase(refusal(error, f"reading {group}/cgroup.procs")) from None


def _words(path: Path) -> list[str]:
    try:
        return path.read_text().split()
    except OSError as error:
        raise NoBase(refusal(error, f"reading {path}")) from None


def _write(path: Path, value: str) -> None:
    with open(path, "w") as handle:
        handle.write(value)
