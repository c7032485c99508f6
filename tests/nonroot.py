"""Starting the judge as an ordinary user from tests that run as root (issue 8).

A judge that is not root confines runs with bwrap's user namespace, and gets control groups only where someone
delegated them to it (as systemd does for a user's service). Tests running as root play that someone: they create
a group for the judge's user in each v1 hierarchy the judge uses, under the test process's own groups (on v2 one
group beside the test process's run groups, its cgroup.procs, cgroup.threads and cgroup.subtree_control handed over
as systemd's Delegate=yes does), hand it over (chown), move the judge into it as root and only then drop to
JUDGE_UID with setpriv. The judge then creates its run groups inside, as it would on a machine set up for it (on
v2 after moving itself into a leaf of the group, judge/runner/containment/v2_base.py).

What a root test machine gets in the way of, solved here and not in the judge:
- the venv's interpreter lives under /root (0700): the judge runs on Debian's /usr/bin/python3, of the venv's
  minor version (so the venv's compiled packages load), with the repository and site-packages on PYTHONPATH;
- pytest's temporary folders are private to root: the judge's files live in a folder under /tmp it owns;
- PATH names nothing under /root, so Python submissions run on /usr/bin/python3 as well.
"""

from __future__ import annotations

import dataclasses
import functools
import json
import os
import shlex
import shutil
import signal
import subprocess
import sys
import sysconfig
import tempfile
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from judge.runner.containment import cgroups, v2_base
from judge.runner.sandbox import BOX_UID

REPO = Path(__file__).resolve().parent.parent
# An unprivileged uid no account uses; not BOX_UID, which is the box of a root judge.
JUDGE_UID = 60001
SYSTEM_PYTHON = Path("/usr/bin/python3")
JUDGE_PATH = "/usr/bin:/bin"
CGROUP_ROOT = Path("/sys/fs/cgroup")
# The v1 controllers the judge makes run groups in (judge/runner/containment/cgroups.py).
V1_CONTROLLERS = ("memory", "cpuacct", "pids", "freezer")
# The files of a v2 group systemd hands over with Delegate=yes (besides the folder itself).
V2_DELEGATED_FILES = ("cgroup.procs", "cgroup.threads", "cgroup.subtree_control")
# Run as the judge's user: which Python it gets, whether the venv's packages load, and what bwrap lacks there.
PROBE = (
    "import json, sys\n"
    "found = {'version': list(sys.version_info[:2])}\n"
    "try:\n"
    "    import psutil, pydantic_core, pyseccomp, yaml\n"
    "    from judge.runner.sandbox import sandbox_gaps\n"
    "    found['bwrap_gaps'] = sandbox_gaps()\n"
    "except ImportError as error:\n"
    "    found['import_error'] = str(error)\n"
    "print(json.dumps(found))\n"
)
RMDIR_TRIES = 200

assert JUDGE_UID != BOX_UID


@dataclass(frozen=True)
class JudgeUser:
    """How to start a command as the judge's unprivileged user. `bwrap_gaps`: what bwrap cannot guarantee for
    that user here (judge.runner.sandbox.sandbox_gaps as it sees it); empty when `--sandbox bwrap` works."""

    uid: int
    setpriv: str
    pythonpath: str
    bwrap_gaps: tuple[str, ...] = ()

    def command(self, argv: list[str], join: tuple[Path, ...] = ()) -> list[str]:
        """`argv` as this user, started in the control groups whose `cgroup.procs` files are `join`: a shell,
        still root, writes its own pid into each, then execs setpriv, which drops to the user and execs argv."""
        moves = "".join(f"echo $$ > {shlex.quote(str(path))} && " for path in join)
        drop = [self.setpriv, f"--reuid={self.uid}", f"--regid={self.uid}", "--clear-groups", "--"]
        return ["/bin/sh", "-c", f'{moves}exec "$@"', "sh", *drop, *argv]

    def judge(self, arguments: list[str], join: tuple[Path, ...]) -> list[str]:
        """`python -m judge arguments` as this user."""
        return self.command([str(SYSTEM_PYTHON), "-m", "judge", *arguments], join)

    def env(self, home: Path, tmpdir: Path, **extra: str) -> dict[str, str]:
        """A user's environment: nothing from root's (no /root on PATH), with the judge importable, and the
        judge's cache (the Python venv) in a folder of the user's outside /tmp, where the box would show it."""
        return {"PATH": JUDGE_PATH, "LANG": "C.UTF-8", "HOME": str(home), "TMPDIR": str(tmpdir),
                "PYTHONPATH": self.pythonpath, "PYTHONDONTWRITEBYTECODE": "1",
                "XDG_CACHE_HOME": str(self.cache()), **extra}

    def cache(self) -> Path:
        """A cache folder this user owns, kept between runs like a real user's ~/.cache."""
        folder = Path("/var/tmp") / f"judge-test-cache-{self.uid}"
        folder.mkdir(mode=0o700, exist_ok=True)
        os.chown(folder, self.uid, self.uid)
        return folder


@functools.lru_cache(maxsize=None)
def judge_user() -> JudgeUser | str:
    """The judge's user, ready to start it, or why the judge cannot be started as an ordinary user here."""
    if os.geteuid() != 0:
        return "the tests do not run as root, so they cannot start the judge as another user"
    setpriv = shutil.which("setpriv")
    if setpriv is None:
        return "setpriv is not installed (Debian: apt-get install util-linux)"
    if not SYSTEM_PYTHON.is_file():
        return f"{SYSTEM_PYTHON} is missing: the venv's interpreter is under /root, out of a user's reach " \
               "(Debian: apt-get install python3-venv, as scripts/setup.sh does)"
    paths = dict.fromkeys([str(REPO), sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"]])
    user = JudgeUser(JUDGE_UID, setpriv, os.pathsep.join(paths))
    with owned_folder(JUDGE_UID) as home:
        done = subprocess.run(user.command([str(SYSTEM_PYTHON), "-c", PROBE]), capture_output=True, text=True,
                              env=user.env(home, home), cwd="/", timeout=60)
    if done.returncode != 0:
        return f"{SYSTEM_PYTHON} does not start as uid {JUDGE_UID}: {done.stderr.strip()[-300:]}"
    found = json.loads(done.stdout)
    wanted = list(sys.version_info[:2])
    if found["version"] != wanted:
        return f"{SYSTEM_PYTHON} is Python {'.'.join(map(str, found['version']))}, not the venv's " \
               f"{'.'.join(map(str, wanted))}, so the venv's compiled packages do not load in it"
    if "import_error" in found:
        return f"the venv's packages do not import in {SYSTEM_PYTHON} as uid {JUDGE_UID}: {found['import_error']}"
    return dataclasses.replace(user, bwrap_gaps=tuple(found["bwrap_gaps"]))


def delegation_problem() -> str | None:
    """Why control groups cannot be delegated to the judge's user here, or None when they can."""
    mechanism = cgroups.probe()
    if mechanism == "none":
        return "the tests (root) cannot create a control group here either, so there is none to delegate"
    return None


def _v2_parent() -> Path:
    """Where this process makes v2 run groups: its own group, or the parent of the leaf it moved into."""
    own = next(line[3:] for line in Path("/proc/self/cgroup").read_text().splitlines() if line.startswith("0::"))
    group = CGROUP_ROOT / own.strip().lstrip("/")
    return group.parent if group.name.startswith(v2_base.LEAF_PREFIX) or group.name == v2_base.INIT_LEAF else group


def _v1_parents() -> dict[str, Path]:
    """Per v1 controller, this process's group in its hierarchy (from /proc/self/cgroup)."""
    own: dict[str, str] = {}
    for line in Path("/proc/self/cgroup").read_text().splitlines():
        _, controllers, path = line.split(":", 2)
        for controller in controllers.split(","):
            own[controller] = path
    parents = {}
    for controller in V1_CONTROLLERS:
        hierarchy = next((CGROUP_ROOT / name for name in (controller, f"cpu,{controller}")
                          if (CGROUP_ROOT / name).is_dir()), None)
        if hierarchy is not None and controller in own:
            parents[controller] = hierarchy / own[controller].lstrip("/")
    return parents


@dataclass(frozen=True)
class Delegation:
    """Control groups handed over to a user, one per hierarchy: a judge started in them (`join`) may create its
    run groups inside."""

    folders: tuple[Path, ...]

    @property
    def join(self) -> tuple[Path, ...]:
        return tuple(folder / "cgroup.procs" for folder in self.folders)

    def residue(self) -> list[str]:
        """What is left in the groups once the judge has returned: run groups it did not remove, processes. A v2
        judge's own empty leaf stays (it cannot remove the group it is in; the next judge's sweep does)."""
        found = []
        for folder in self.folders:
            for child in sorted(child for child in folder.iterdir() if child.is_dir()):
                if not (child.name.startswith(v2_base.LEAF_PREFIX) and not _pids(child)):
                    found.append(f"group {child}")
            found += [f"process {pid} in {folder}" for pid in _pids(folder)]
        return found

    def remove(self) -> None:
        """Kill every process left in the groups and remove them, innermost first."""
        for folder in self.folders:
            for group in sorted((Path(path) for path, _, _ in os.walk(folder)), key=lambda p: -len(p.parts)):
                _empty(group)


@contextmanager
def delegated(uid: int) -> Iterator[Delegation]:
    """A fresh group owned by `uid` in each v1 hierarchy the judge uses, or on v2 one group delegated as
    systemd's Delegate=yes does (see `delegation_problem`)."""
    name = f"hostile-nonroot-{uuid.uuid4().hex[:12]}"
    folders: list[Path] = []
    v2 = (CGROUP_ROOT / "cgroup.controllers").exists()
    try:
        parents = [_v2_parent()] if v2 else list(dict.fromkeys(p.resolve() for p in _v1_parents().values()))
        for parent in parents:
            folder = parent / name
            folder.mkdir()
            folders.append(folder)
            handed = [folder / file for file in V2_DELEGATED_FILES] if v2 else list(folder.iterdir())
            for path in (folder, *handed):
                os.chown(path, uid, uid)
        yield Delegation(tuple(folders))
    finally:
        Delegation(tuple(folders)).remove()


def _pids(group: Path) -> list[int]:
    try:
        return [int(pid) for pid in (group / "cgroup.procs").read_text().split()]
    except FileNotFoundError:
        return []


def _empty(group: Path) -> None:
    """SIGKILL what is in `group` (thawed first: a frozen process does not die), then remove it."""
    state = group / "freezer.state"
    if state.exists():
        state.write_text("THAWED")
    for _ in range(RMDIR_TRIES):
        for pid in _pids(group):
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        try:
            group.rmdir()
            return
        except FileNotFoundError:
            return
        except OSError:
            time.sleep(0.01)
    raise AssertionError(f"cannot remove the control group {group}: {_pids(group)} still in it")


@contextmanager
def owned_folder(uid: int) -> Iterator[Path]:
    """A fresh folder under /tmp owned by `uid`, removed afterwards (pytest's tmp_path is private to root)."""
    folder = Path(tempfile.mkdtemp(prefix="hostile-nonroot-", dir="/tmp"))
    try:
        os.chown(folder, uid, uid)
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def hand_over(folder: Path, uid: int) -> None:
    """Make `uid` the owner of `folder` and everything in it, as its files would be on a user's machine."""
    for path in (folder, *folder.rglob("*")):
        os.chown(path, uid, uid, follow_symlinks=False)
