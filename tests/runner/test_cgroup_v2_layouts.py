"""The judge on cgroup v2 wherever a v2 machine puts it (issue 23), not only in the root group.

Each layout is built by the test (root) the way systemd or a container runtime builds it, and a `judge run` is
started inside it as a person would start it there:

- `alone`: a group holding only the judge (a systemd service, `systemd-run --scope`, a container's group);
- `shared-named`: a group the judge shares with another process (a login shell's session scope), with
  JUDGE_CGROUP naming an empty group for it;
- `container`: a group of its own seen as the root of the judge's cgroup namespace, cgroup2 mounted there (as a
  container runtime with `--cgroupns=private` does);
- `no-cpu`: a group whose parent delegates memory and pids but not cpu;
- `user-delegated`: an ordinary user's group handed over as systemd's `Delegate=yes` does (tests/nonroot.py);
- `shared` without systemd (issue 44): a group, or a container's cgroup namespace, shared with a shell: root
  moves the shell into a leaf and takes the group; an ordinary user is told what root must do.

In each the report must say `cgroup v2`, the memory and process limits must hold (MLE; forks refused at the
allowance), nothing may be left in the layout but what the test put there, and the judge's group must be given back
as it was found (no controllers enabled for children, no leaf), or the next process started in it is refused. A
group the judge cannot take must fall back loudly: `judge doctor` warns, with the errno and a fix.
Skipped unless this machine mounts cgroup v2 and the tests run as root; the VM lane (scripts/cgroup2-lane.sh)
runs them on Debian 12's kernel.
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from judge.runner.containment import cgroups, v2_base

import nonroot
from conftest import ROOT, write_problem

CGROUP_ROOT = Path("/sys/fs/cgroup")
JUDGE_TIMEOUT_SECONDS = 600  # a guard only: under emulation a judge run takes tens of seconds
FORKS_TRIED = 100
FORKER = f"""\
import os, time
children = []
for _ in range({FORKS_TRIED}):
    try:
        pid = os.fork()
    except OSError:
        break
    if pid == 0:
        time.sleep(30)
        os._exit(0)
    children.append(pid)
print(len(children))
for child in children:
    os.kill(child, 9)
"""
HOG = "block = bytearray(400 * 1024 * 1024)\nfor i in range(0, len(block), 4096):\n    block[i] = 1\nprint(3)\n"

pytestmark = pytest.mark.skipif(not (CGROUP_ROOT / "cgroup.controllers").exists() or os.geteuid() != 0,
                                reason="needs a cgroup v2 hierarchy and root to build its layouts")


def _parent() -> Path:
    """Where the test process may make groups: the parent of its own run groups, found as the judge finds it (a
    login's session scope, where the lane starts the tests, hands no controller down: the test process goes into a
    leaf of a delegated scope systemd makes for it; without systemd, a judge may have moved it into `judge-init`),
    so that no test depends on one run before it."""
    found = cgroups.availability()
    assert found.mechanism == "cgroup v2", f"the tests themselves get no control group here: {found.detail}"
    own = next(line[3:] for line in Path("/proc/self/cgroup").read_text().splitlines() if line.startswith("0::"))
    group = CGROUP_ROOT / own.strip().lstrip("/")
    return group.parent if group.name.startswith(v2_base.LEAF_PREFIX) or group.name == v2_base.INIT_LEAF else group


@contextmanager
def _group(parent: Path, name: str, subtree: str = "") -> Iterator[Path]:
    folder = parent / f"{name}-{uuid.uuid4().hex[:8]}"
    folder.mkdir()
    try:
        if subtree:
            (folder / "cgroup.subtree_control").write_text(subtree)
        yield folder
    finally:
        for inner in sorted((Path(p) for p, _, _ in os.walk(folder)), key=lambda p: -len(p.parts)):
            for pid in (inner / "cgroup.procs").read_text().split():
                os.kill(int(pid), signal.SIGKILL)
            for _ in range(500):
                try:
                    inner.rmdir()
                    break
                except OSError:
                    subprocess.run(["sleep", "0.01"])


def _processes(group: Path) -> list[str]:
    """Every process left anywhere under `group`, with the group it is in."""
    return [f"{pid} in {Path(folder).name}" for folder, _, _ in os.walk(group)
            for pid in (Path(folder) / "cgroup.procs").read_text().split()]


def _changed(group: Path) -> list[str]:
    """What a judge left changed in `group` after it exited: controllers it enabled for the children (then no
    process may join the group: EBUSY), groups it made inside (its leaf, run groups)."""
    return [*(f"+{name}" for name in (group / "cgroup.subtree_control").read_text().split()),
            *(f"group {child.name}" for child in sorted(group.iterdir()) if child.is_dir())]


def _in_group(group: Path, argv: list[str]) -> list[str]:
    """`argv` started in `group`: a shell writes its pid into the group, then execs it."""
    return ["/bin/sh", "-c", f'echo $$ > {group}/cgroup.procs && exec "$@"', "sh", *argv]


def _judge(arguments: list[str]) -> list[str]:
    return [sys.executable, "-m", "judge", *arguments]


def _env(**extra: str) -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(ROOT), **extra}


def _submission(folder: Path, name: str, source: str, answer: str) -> tuple[Path, Path]:
    problem = write_problem(folder / f"problem-{name}", {"1": ("\n", answer)}, time_limit=5, memory_limit=128)
    path = folder / f"{name}.py"
    path.write_text(source)
    return problem, path


def _run(command: list[str], env: dict[str, str], cwd: Path = ROOT) -> dict[str, Any]:
    done = subprocess.run(command, capture_output=True, text=True, env=env, cwd=cwd,
                          timeout=JUDGE_TIMEOUT_SECONDS, check=False)
    assert done.returncode in (0, 1) and done.stdout.startswith("{"), \
        f"judge exit {done.returncode}: {done.stdout[-1000:]} {done.stderr[-2000:]}"
    return json.loads(done.stdout)


def _check_limits(folder: Path, start: Callable[[list[str]], dict[str, Any]]) -> None:
    """The process and memory limits hold under `start(arguments) -> report`, counted by cgroup v2."""
    problem, forker = _submission(folder, "forker", FORKER, "0\n")
    report = start(["run", str(problem), str(forker), "--sandbox", "none", "--json", "--feedback", "full"])
    assert report["memory_enforcement"].startswith("cgroup v2"), report["memory_enforcement"]
    case = report["cases"][0]
    forked = re.fullmatch(r"line 1: expected '0', got '(\d+)'", case["message"])
    assert report["verdict"] == "WA" and forked is not None, case
    assert int(forked.group(1)) < report["limits"]["max_processes"], case["message"]
    problem, hog = _submission(folder, "hog", HOG, "3\n")
    report = start(["run", str(problem), str(hog), "--sandbox", "none", "--json", "--feedback", "full"])
    assert report["memory_enforcement"].startswith("cgroup v2"), report["memory_enforcement"]
    assert report["verdict"] == "MLE", report


def test_alone_in_a_group_of_its_own(tmp_path: Path) -> None:
    with _group(_parent(), "service") as service:
        _check_limits(tmp_path, lambda arguments: _run(_in_group(service, _judge(arguments)), _env()))
        assert _processes(service) == []
        assert _changed(service) == []


def test_alone_in_a_container_s_cgroup_namespace(tmp_path: Path) -> None:
    """The judge sees its group as the root (/proc/self/cgroup says `0::/`), which holds it: not the host's root."""
    namespace = ["unshare", "--cgroup", "--mount", "--propagation", "private", "/bin/sh", "-c",
                 'umount -l /sys/fs/cgroup && mount -t cgroup2 cgroup2 /sys/fs/cgroup && exec "$@"', "sh"]
    with _group(_parent(), "container") as container:
        _check_limits(tmp_path, lambda arguments: _run(_in_group(container, [*namespace, *_judge(arguments)]),
                                                       _env()))
        assert _processes(container) == []
        assert _changed(container) == []


def test_sharing_a_group_with_a_named_group_to_use(tmp_path: Path) -> None:
    with _group(_parent(), "session") as session, _group(_parent(), "named") as named:
        shell = subprocess.Popen(_in_group(session, ["sleep", "600"]))
        try:
            variable = {"JUDGE_CGROUP": "/" + str(named.relative_to(CGROUP_ROOT))}
            _check_limits(tmp_path, lambda arguments: _run(_in_group(session, _judge(arguments)), _env(**variable)))
            assert _processes(session) == [f"{shell.pid} in {session.name}"]
            assert _processes(named) == []
            assert _changed(named) == []
        finally:
            shell.kill()
            shell.wait()


def _from(process: int, argv: list[str]) -> list[str]:
    """`argv` started where `process` (a shell) is now, as the shell would start it."""
    own = next(line[3:] for line in Path(f"/proc/{process}/cgroup").read_text().splitlines() if line.startswith("0::"))
    return _in_group(CGROUP_ROOT / own.strip().lstrip("/"), argv)


def _doctor_memory(command: list[str], env: dict[str, str], cwd: Path = ROOT) -> str:
    """`judge doctor`'s memory row, as `command` runs it (a table wide enough not to wrap a word)."""
    done = subprocess.run(command, capture_output=True, text=True, env={**env, "COLUMNS": "1000"}, cwd=cwd,
                          timeout=JUDGE_TIMEOUT_SECONDS, check=False)
    assert done.returncode in (0, 1), done.stderr  # 1: the host's timing conditions, not its memory row
    return done.stdout[done.stdout.index(" memory"):done.stdout.index(" containment")]


def _without_systemd() -> None:
    if Path("/run/systemd/system").is_dir():
        pytest.skip("systemd runs here: the judge asks it for a scope of its own instead")


def test_root_sharing_a_group_without_systemd_makes_it_its_own(tmp_path: Path) -> None:
    """Issue 44, item 8: no systemd (a container's entrypoint, WSL, OpenRC) and a group shared with a shell. The
    judge (root) moves the shell into a leaf, `judge-init`, and makes run groups beside it: doctor says cgroup v2,
    and judges started later from the shell, now in `judge-init`, get their run's own limits."""
    _without_systemd()
    env = {key: value for key, value in _env().items() if key != "JUDGE_CGROUP"}
    with _group(_parent(), "shared") as shared:
        shell = subprocess.Popen(_in_group(shared, ["sleep", "600"]))
        try:
            memory = _doctor_memory(_in_group(shared, _judge(["doctor"])), env)
            assert " ok " in memory and "cgroup v2" in memory and "judge-init" in memory, memory
            _check_limits(tmp_path, lambda arguments: _run(_from(shell.pid, _judge(arguments)), env))
            assert _processes(shared) == [f"{shell.pid} in judge-init"]
            assert [child.name for child in shared.iterdir() if child.is_dir()] == ["judge-init"]
        finally:
            shell.kill()
            shell.wait()


def test_root_sharing_a_container_s_cgroup_namespace_without_systemd(tmp_path: Path) -> None:
    """As above, the group seen as the root of a cgroup namespace (a container started with a shell or an init
    such as tini, `docker exec` beside it): `0::/` is not the host's root, and the judge takes it."""
    _without_systemd()
    namespace = ["unshare", "--cgroup", "--mount", "--propagation", "private", "/bin/sh", "-c",
                 'umount -l /sys/fs/cgroup && mount -t cgroup2 cgroup2 /sys/fs/cgroup && exec "$@"', "sh"]
    env = {key: value for key, value in _env().items() if key != "JUDGE_CGROUP"}
    with _group(_parent(), "container") as container:
        init = subprocess.Popen(_in_group(container, ["sleep", "600"]))
        try:
            _check_limits(tmp_path, lambda arguments: _run(_from(init.pid, [*namespace, *_judge(arguments)]), env))
            assert _processes(container) == [f"{init.pid} in judge-init"]
        finally:
            init.kill()
            init.wait()


def test_an_ordinary_user_sharing_a_group_without_systemd_is_told_what_to_do() -> None:
    """An ordinary user may not move root's processes nor make groups in root's: doctor warns, with the errno and
    the commands root runs to delegate a group."""
    _without_systemd()
    user = nonroot.judge_user()
    if isinstance(user, str):
        pytest.skip(user)
    with _group(_parent(), "shared") as shared, nonroot.owned_folder(user.uid) as home:
        shell = subprocess.Popen(_in_group(shared, ["sleep", "600"]))
        try:
            command = user.judge(["doctor"], (shared / "cgroup.procs",))
            memory = _doctor_memory(command, user.env(home, home), cwd=Path("/"))
            assert " warn " in memory and "EACCES" in memory, memory
            assert "have root delegate a group" in memory and "chown" in memory, memory
            assert _processes(shared) == [f"{shell.pid} in {shared.name}"]
        finally:
            shell.kill()
            shell.wait()


def test_a_subtree_without_the_cpu_controller(tmp_path: Path) -> None:
    with _group(_parent(), "nocpu", "+memory +pids") as nocpu, _group(nocpu, "service") as service:
        assert "cpu" not in (service / "cgroup.controllers").read_text().split()
        _check_limits(tmp_path, lambda arguments: _run(_in_group(service, _judge(arguments)), _env()))
        assert _processes(nocpu) == []
        assert _changed(service) == []


def test_an_ordinary_user_in_a_delegated_group(tmp_path: Path) -> None:
    user = nonroot.judge_user()
    if isinstance(user, str):
        pytest.skip(user)
    _parent()  # the test process moved where groups may be delegated from (nonroot.delegated makes them there)
    with nonroot.owned_folder(user.uid) as home, nonroot.delegated(user.uid) as delegation:
        def start(arguments: list[str]) -> dict[str, Any]:
            nonroot.hand_over(home, user.uid)
            return _run(user.judge(arguments, delegation.join), user.env(home, home), cwd=Path("/"))

        _check_limits(home, start)
        assert delegation.residue() == []
        assert [change for folder in delegation.folders for change in _changed(folder)] == []
