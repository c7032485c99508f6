"""Hostile submissions (issue 4): each program in tests/runner/hostile/ judged through the CLI, as a student would
submit it.

Every row of `HOSTILE` names a program, the verdicts it may get under each isolation mode, and the modes where it
must not run. For every run the suite checks what must NOT happen, not only the verdict:

- the judge process stays alive and reports (exit 0 or 1, one JSON document naming the isolation level);
- no process the submission started exists afterwards: each program names itself `hx<hex>` (prctl PR_SET_NAME,
  inherited by its children and threads), and the whole system's process table is searched for that name;
  the test process is also a child subreaper, so orphans the judge lets go would come back to it;
- no file outside the box changed: the problem folder, the submission's folder and a fake HOME given to the judge
  are compared (hash and mtime) before and after, and a marker path in the host's /tmp must not appear;
- the run ends: every program here runs forever (or far past its limits) unless a limit ends it, so the judge
  returning a verdict is the proof; no elapsed time is asserted (a loaded machine is slow, not wrong), and
  HANG_GUARD_SECONDS only keeps a broken judge from hanging the suite.

Unconfined (`--sandbox none`) a submission runs as the judge's user, so reading the answer, the judge's
environment or the network works: those rows document it with `leaks=True` and the verdict the leak earns (AC).
Programs that would harm the machine when unconfined (kill(-1), killing the parent or the judge's process group,
filling /tmp with 10 GB) run only in the bwrap box and refuse to act when their PID namespace is the host's.

Modes: `bwrap` and `none` with the control group this machine offers (bwrap: the warm box, where the judge is
root); `bwrap-proc` and `none-proc` with `--containment proc` (rlimits + /proc polling, a box per test), for the
rows that are safe there.
`bwrap-nonroot` and `none-nonroot` (slow) start the judge as an ordinary user (tests/nonroot.py) in control groups
delegated to it, with the rows, verdicts and skips of `bwrap` and `none`; the problem, the submission and HOME are
that user's files, so unconfined they are its to change. Its report must say it used control groups (a fallback
to rlimits would be a regression), and it must leave no run group behind. They need the tests to run as root.
"""

from __future__ import annotations

import ctypes
import hashlib
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Iterator
from contextlib import nullcontext
from dataclasses import dataclass, field
from pathlib import Path

import psutil
import pytest

import nonroot
from conftest import TEST_TIME_SCALE, write_problem
from judge.languages.catalog import LANGUAGES
from judge.languages.toolchains import resolve_toolchain
from judge.runner.containment import cgroups
from judge.runner.sandbox import bwrap_problem
from judge.tool_cache import cache_dir

HOSTILE_DIR = Path(__file__).parent / "hostile"
JUDGE_CACHE = cache_dir()  # read before any test changes HOME
REPO = Path(__file__).resolve().parents[2]
HANG_GUARD_SECONDS = 300.0
# How long a killed process may take to disappear from the process table once the judge has returned.
EXIT_GRACE_SECONDS = 10.0
PR_SET_CHILD_SUBREAPER = 36
# Set by a CI lane that knows what the machine gives (scripts/cgroup2-lane-guest.sh: `cgroup v2`): every report
# of a mode that does not ask for `proc` must name it, so a silent fallback fails the lane.
EXPECTED_CONTAINMENT_VARIABLE = "JUDGE_EXPECT_CONTAINMENT"
MODES = ("bwrap", "none", "bwrap-proc", "none-proc")
# The judge started as an ordinary user: mode -> the mode whose verdicts, skips and messages it shares.
NONROOT_MODES = {"bwrap-nonroot": "bwrap", "none-nonroot": "none"}
IN_BOX_ONLY = "harms the machine unless confined: runs only in the bwrap box (its own PID namespace)"
NPROC_PER_UID = (
    "bug: without a control group the process count is bounded by RLIMIT_NPROC only, set to every task on the "
    "machine plus the allowance (the count RLIMIT_NPROC keeps is per uid, and the box's uid is shared by "
    "parallel runs; unconfined, a root judge's submission is root, which the kernel exempts): 150 processes fork, "
    "as root and as an ordinary user alike (cgroup v2 lane, a judge started by a user)"
)
UNBOUNDED_AS_ROOT = "unbounded without the pids controller: RLIMIT_NPROC is every task on the machine plus 64"


@dataclass(frozen=True)
class Hostile:
    """One hostile program and what it may earn in each mode; `skip` says why a mode must not run it. A mode in
    neither is not generated (the fallback modes run only the rows that ask for them)."""

    file: str
    verdicts: dict[str, frozenset[str]]
    skip: dict[str, str] = field(default_factory=dict)
    # Unconfined it reads or writes what it should not (documented, asserted): outside files change, or it is AC.
    leaks: bool = False
    # A regex a WA message must match, per mode (for programs that print what they could see).
    message: dict[str, str] = field(default_factory=dict)
    memory_limit: int = 64
    # Known bugs (mode -> reason): the row fails there today; strict, so a fix makes the suite say so.
    xfail: dict[str, str] = field(default_factory=dict)


def row(file: str, box: str, unconfined: str | None = None, *, fallback: str | None = None,
        skip_unconfined: str = "", skip_fallback: str = "", leaks: bool = False,
        message: dict[str, str] | None = None, memory_limit: int = 64, xfail: dict[str, str] | None = None) -> Hostile:
    """A table row: verdicts as space-separated short codes, `box` for bwrap, `unconfined` for none (default: same),
    `fallback` for both modes without a control group (default: not run; `skip_fallback` says why when it must
    not be)."""
    verdicts = {"bwrap": frozenset(box.split())}
    skip: dict[str, str] = {}
    if skip_unconfined:
        skip["none"] = skip["none-proc"] = skip_unconfined
    else:
        verdicts["none"] = frozenset((unconfined or box).split())
    if fallback is None:
        if skip_fallback:
            skip.setdefault("bwrap-proc", skip_fallback)
            skip.setdefault("none-proc", skip_fallback)
    else:
        verdicts["bwrap-proc"] = frozenset(fallback.split())
        if "none-proc" not in skip:
            verdicts["none-proc"] = frozenset(fallback.split())
    return Hostile(file, verdicts, skip, leaks, message or {}, memory_limit, xfail or {})


HOSTILE = [
    # Processes and threads
    # With a pids limit a bomb is RE on every kernel (execute.py); without one it is TLE or RE.
    row("fork_bomb.c", "RE", skip_fallback=UNBOUNDED_AS_ROOT),
    row("thread_bomb.py", "RE", fallback="RE TLE"),
    row("daemon.py", "AC", fallback="AC"),
    row("nproc_probe.c", "WA", fallback="WA", memory_limit=512,
        message={mode: r"got 'forked=([0-9]|[1-5][0-9]|6[0-3])'$" for mode in MODES},
        xfail=dict.fromkeys(("bwrap-proc", "none-proc"), NPROC_PER_UID)),
    # Reading what is not the submission's
    row("read_answer_abs.py", "WA", "AC", leaks=True, message={"bwrap": r"got 'unreadable:2'$"}),
    row("read_answer_rel.py", "WA", "AC", leaks=True, message={"bwrap": r"got 'unreadable'$"}),
    row("list_dirs.py", "WA", leaks=True,
        message={"bwrap": r"got 'problem=0,home=0,work=0,hosttmp=0,", "none": r"got 'problem=1,home=1,"}),
    row("read_environ.py", "WA", "AC", leaks=True, message={"bwrap": r"got 'nothing-in-"}),
    row("read_cmdline.py", "WA", "AC", leaks=True, message={"bwrap": r"got 'nothing-in-"}),
    row("net_connect.py", "WA", "AC", leaks=True, message={"bwrap": r"got 'unreachable:"}),
    # Writing where it should not
    row("write_outside.py", "AC", leaks=True),
    row("stdin_reopen.py", "AC"),
    row("inherited_fds.py", "AC", fallback="AC"),
    row("fill_tmp.py", "AC MLE", skip_unconfined="would fill the real disk: runs only where /tmp is a 64 MiB tmpfs"),
    row("fill_box_root.py", "WA MLE", fallback="WA", skip_unconfined=IN_BOX_ONLY, memory_limit=256,
        message={mode: r"got 'wrote=([0-9]|[1-5][0-9]|6[0-4])'$" for mode in ("bwrap", "bwrap-proc")}),
    row("nested_userns.py", "WA MLE", fallback="WA", skip_unconfined=IN_BOX_ONLY, memory_limit=512,
        message={"bwrap": r"got 'userns=0,", "bwrap-proc": r"got 'userns=0,"}),
    # Signals
    row("kill_parent.py", "AC", skip_unconfined=IN_BOX_ONLY),
    row("kill_all.py", "AC", skip_unconfined=IN_BOX_ONLY),
    row("kill_group.py", "AC RE", skip_unconfined=IN_BOX_ONLY),
    # Output and input
    row("stdout_flood.py", "OLE", fallback="OLE"),
    row("stderr_flood.py", "OLE"),
    row("close_stdout_spin.py", "TLE", fallback="TLE"),
    row("stdin_forever.py", "TLE"),
    row("stop_self.py", "TLE"),
    # Memory and stack
    row("memory_huge.py", "MLE", fallback="MLE"),
    row("memory_many_small.py", "MLE", fallback="MLE"),
    row("stack_overflow.c", "RE MLE", fallback="RE MLE"),
    # Under a polled containment the 64 MiB are filled through RLIMIT_AS alone, page fault by page fault: 0.1 s of
    # CPU on a quiet machine, past the 1 s limit when the kernel is reclaiming memory for others (seen in full
    # suites here). Recursing forever, TLE is as right a verdict as the limit it did not reach first.
    row("recursion_limit.py", "MLE RE", fallback="MLE RE TLE"),
    row("c_stack_via_python.py", "RE MLE", fallback="RE MLE"),
]


def _table_mode(mode: str) -> str:
    """The mode whose entries in a row (verdicts, skip, message) apply to `mode`; xfail is per mode."""
    return NONROOT_MODES.get(mode, mode)


def _params() -> Iterator[object]:
    bwrap_reason = bwrap_problem()
    for hostile in HOSTILE:
        for mode in (*MODES, *NONROOT_MODES):
            table = _table_mode(mode)
            if table not in hostile.verdicts and table not in hostile.skip:
                continue
            marks = [pytest.mark.slow] if mode in NONROOT_MODES else []
            if table in hostile.skip:
                marks.append(pytest.mark.skip(reason=hostile.skip[table]))
            elif mode.startswith("bwrap") and bwrap_reason is not None:
                marks.append(pytest.mark.skip(reason=f"bwrap unusable here: {bwrap_reason}"))
            elif mode in ("bwrap", "none") and cgroups.probe() == "none":
                marks.append(pytest.mark.skip(reason="no writable cgroup here: the -proc modes cover this"))
            elif mode in hostile.xfail:
                marks.append(pytest.mark.xfail(strict=True, reason=hostile.xfail[mode]))
            yield pytest.param(hostile, mode, marks=marks, id=f"{Path(hostile.file).stem}-{mode}")


# ---------------------------------------------------------------------------------------------------------------
# The world around one judged submission


@dataclass
class World:
    """A problem whose answer is a secret, a fake HOME, a TCP server on 127.0.0.1, and the values written into
    the hostile programs' placeholders."""

    root: Path
    secret: str
    tag: str
    problem: Path
    submissions: Path
    home: Path
    host_tmp_mark: Path
    server: TcpServer

    def placeholders(self) -> dict[str, str]:
        return {
            "TAG": self.tag,
            "ANSWER_PATH": str(self.problem / "tests" / "1.ans"),
            "PROBLEM_DIR": str(self.problem),
            "SUBMISSION_DIR": str(self.submissions),
            "FAKE_HOME": str(self.home),
            "HOST_TMP_MARK": str(self.host_tmp_mark),
            "PORT": str(self.server.port),
            "HOST_PIDNS": os.readlink("/proc/self/ns/pid"),
        }

    def outside(self) -> dict[str, tuple[int, int, str]]:
        """Every file and folder outside the box that a submission could try to change: path -> (mtime, size, hash)."""
        state = {}
        for top in (self.problem, self.submissions, self.home):
            for path in sorted([top, *top.rglob("*")]):
                stat = path.lstat()
                digest = hashlib.sha256(path.read_bytes()).hexdigest() if path.is_file() else "dir"
                state[str(path)] = (stat.st_mtime_ns, stat.st_size, digest)
        state["host /tmp mark exists"] = (0, 0, str(self.host_tmp_mark.exists()))
        return state


class TcpServer:
    """Accepts connections on 127.0.0.1 and sends each one the secret; counts them."""

    def __init__(self, secret: str) -> None:
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.listener.settimeout(0.1)
        self.port = self.listener.getsockname()[1]
        self.secret = secret
        self.connections = 0
        self.stopping = threading.Event()
        self.thread = threading.Thread(target=self._serve, daemon=True)
        self.thread.start()

    def _serve(self) -> None:
        while not self.stopping.is_set():
            try:
                connection, _ = self.listener.accept()
            except TimeoutError:
                continue
            except OSError:
                return
            self.connections += 1
            with connection:
                connection.sendall(f"{self.secret}\n".encode())

    def stop(self) -> None:
        self.stopping.set()
        self.thread.join()
        self.listener.close()


def _nonroot_user_or_skip() -> nonroot.JudgeUser:
    """The ordinary user to start the judge as, with control groups delegated to it; else the test is skipped."""
    user = nonroot.judge_user()
    if isinstance(user, str):
        pytest.skip(user)
    problem = nonroot.delegation_problem()
    if problem is not None:
        pytest.skip(problem)
    return user


@pytest.fixture
def judge_user(request: pytest.FixtureRequest) -> nonroot.JudgeUser | None:
    """The ordinary user a nonroot mode (the test's `mode` parameter) starts the judge as, skipping with the
    reason where it cannot be done; None where the judge runs as the tests' own user."""
    mode = request.node.callspec.params.get("mode") if hasattr(request.node, "callspec") else None
    if mode not in NONROOT_MODES:
        return None
    user = _nonroot_user_or_skip()
    if mode.startswith("bwrap") and user.bwrap_gaps:
        pytest.skip(f"bwrap cannot confine a judge that is not root here: {'; '.join(user.bwrap_gaps)}")
    return user


@pytest.fixture
def world(tmp_path: Path, judge_user: nonroot.JudgeUser | None) -> Iterator[World]:
    """The world of one run; for a judge started as an ordinary user, in a folder that user owns (pytest's
    tmp_path is private to root)."""
    secret = f"s{uuid.uuid4().hex[:16]}"
    tag = f"hx{uuid.uuid4().hex[:8]}"
    server = TcpServer(secret)
    host_tmp_mark = Path("/tmp") / f"{tag}-outside"
    with nonroot.owned_folder(judge_user.uid) if judge_user else nullcontext(tmp_path) as root:
        home = root / "home"
        home.mkdir()
        (home / ".bashrc").write_text("# the judge user's own file\n")
        yield World(root, secret, tag, root / f"prob-{secret}", root / "submission", home, host_tmp_mark, server)
    server.stop()
    host_tmp_mark.unlink(missing_ok=True)


@pytest.fixture
def subreaper() -> Iterator[None]:
    """Make this test process the child subreaper, so orphans of the judge's runs are re-parented to it."""
    libc = ctypes.CDLL(None, use_errno=True)
    libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)
    try:
        yield
    finally:
        libc.prctl(PR_SET_CHILD_SUBREAPER, 0, 0, 0, 0)
        _reap_zombies()


def _reap_zombies() -> None:
    for child in psutil.Process().children():
        try:
            if child.status() == psutil.STATUS_ZOMBIE:
                os.waitpid(child.pid, os.WNOHANG)
        except (psutil.Error, ChildProcessError):
            continue


def _tagged(tag: str) -> list[psutil.Process]:
    """Live processes anywhere on the system named `tag` (zombies are dead: they only wait for their parent)."""
    found = []
    for process in psutil.process_iter(["name", "status"]):
        if process.info["name"] == tag and process.info["status"] != psutil.STATUS_ZOMBIE:
            found.append(process)
    return found


def _live_children() -> set[int]:
    """This process's live descendants: with the subreaper on, orphans of the judge's runs come back here."""
    live = set()
    for child in psutil.Process().children(recursive=True):
        try:
            if child.status() != psutil.STATUS_ZOMBIE:
                live.add(child.pid)
        except psutil.Error:
            continue
    return live


def _leftovers(tag: str, known: frozenset[int] = frozenset(), grace: float = EXIT_GRACE_SECONDS) -> list[str]:
    """Processes of this submission still alive after the grace period, described; then killed. `known` are
    descendants of this process that existed before the run (not the submission's)."""
    deadline = time.monotonic() + grace
    while True:
        _reap_zombies()
        orphans = [psutil.Process(pid) for pid in _live_children() - known if psutil.pid_exists(pid)]
        alive = {process.pid: process for process in [*_tagged(tag), *orphans]}
        if not alive or time.monotonic() > deadline:
            break
        time.sleep(0.05)
    described = []
    for process in alive.values():
        try:
            described.append(f"{process.pid} {process.name()} {process.cmdline()[:4]}")
            process.kill()
        except psutil.Error:
            continue
    return described


def prepare(world: World, hostile: Hostile) -> Path:
    """Write the problem (answer = input = the secret) and the hostile program with its placeholders filled in."""
    write_problem(world.problem, {"1": (f"{world.secret}\n", f"{world.secret}\n")}, id="hostile", title="Echo",
                  time_limit=TEST_TIME_SCALE, memory_limit=hostile.memory_limit, language_allowance=False)
    text = (HOSTILE_DIR / hostile.file).read_text()
    for key, value in world.placeholders().items():
        text = text.replace(f"@{key}@", value)
    assert not re.search(r"@[A-Z_]+@", text), "a placeholder without a value"
    world.submissions.mkdir(exist_ok=True)
    source = world.submissions / hostile.file
    source.write_text(text)
    return source


def judge_cli(world: World, source: Path, mode: str, *extra: str, user: nonroot.JudgeUser | None = None,
              delegation: nonroot.Delegation | None = None) -> tuple[subprocess.CompletedProcess[str], float]:
    """Run `judge run` as its own process, as a person would; returns it and its wall time. With `user` the
    judge runs as that user in `delegation`'s control groups, its temporary files in the world's tmp."""
    sandbox = mode.split("-")[0]
    containment = ["--containment", "proc"] if mode.endswith("-proc") else []
    arguments = ["run", str(world.problem), str(source), "--sandbox", sandbox, *containment, "--json", "--feedback",
                 "full", *extra]
    if user is not None:
        assert delegation is not None, "a judge that is not root gets control groups only by delegation"
        command = user.judge(arguments, delegation.join)
        env = user.env(world.home, world.root / "tmp", JUDGE_HOSTILE_SECRET=world.secret)
    else:
        command = [sys.executable, "-m", "judge", *arguments]
        # The judge's own cache (the Python venv) stays where it is, not in the HOME the suite watches (nor under
        # /tmp, where the box would show the folders above it).
        env = {**os.environ, "HOME": str(world.home), "JUDGE_HOSTILE_SECRET": world.secret,
               "XDG_CACHE_HOME": str(JUDGE_CACHE.parent)}
    started = time.monotonic()
    done = subprocess.run(command, capture_output=True, text=True, env=env, cwd=REPO, timeout=HANG_GUARD_SECONDS)
    return done, time.monotonic() - started


# ---------------------------------------------------------------------------------------------------------------
# The table


@pytest.mark.parametrize(("hostile", "mode"), list(_params()))
def test_hostile_submission(hostile: Hostile, mode: str, judge_user: nonroot.JudgeUser | None, world: World,
                            subreaper: None) -> None:
    if hostile.file.startswith("kill_"):
        # Belt and braces: the kill programs also refuse to act in the host's PID namespace.
        assert mode.startswith("bwrap"), "kill programs must never run unconfined"
    table = _table_mode(mode)
    source = prepare(world, hostile)
    if judge_user is not None:
        (world.root / "tmp").mkdir()
        nonroot.hand_over(world.root, judge_user.uid)
    before = world.outside()
    known = frozenset(_live_children())
    with nonroot.delegated(judge_user.uid) if judge_user else nullcontext() as delegation:
        try:
            done, wall = judge_cli(world, source, mode, user=judge_user, delegation=delegation)
        except subprocess.TimeoutExpired:
            pytest.fail(f"the judge ran past twice the backstop; left behind: {_leftovers(world.tag, known)}")
        leftovers = _leftovers(world.tag, known)
        residue = delegation.residue() if delegation is not None else []
    after = world.outside()

    # The judge is alive and reports: exit 0 (AC) or 1 (another verdict), never killed, never JE (3).
    assert done.returncode in (0, 1), f"judge exit {done.returncode}; stderr: {done.stderr[-2000:]}"
    report = json.loads(done.stdout)
    assert report["isolation"] == mode.split("-")[0]
    case = report["cases"][0]
    verdict = report["verdict"]
    print(f"{hostile.file} [{mode}]: {verdict} ({case['message']}) cpu {case['cpu_seconds']} s, "
          f"wall {case['wall_seconds']} s, judge {wall:.2f} s, peak {case['peak_mib']} MiB")
    assert verdict in hostile.verdicts[table], f"{verdict}: {case['message']}"
    if table in hostile.message and verdict == "WA":
        assert re.search(hostile.message[table], case["message"]), case["message"]

    # Nothing the submission started is still running.
    assert not leftovers, f"processes left behind: {leftovers}"
    expected = os.environ.get(EXPECTED_CONTAINMENT_VARIABLE)
    if expected and not mode.endswith("-proc"):
        assert report["memory_enforcement"].startswith(expected), report["memory_enforcement"]
    if judge_user is not None:
        # The delegated groups were really used (a silent fallback to rlimits would pass the rest), and the judge
        # removed every run group it made there.
        assert report["memory_enforcement"].startswith("cgroup"), report["memory_enforcement"]
        assert not residue, f"left in the delegated control groups: {residue}"

    # Nothing outside the box changed (unconfined, the leaking programs are documented to change or read it).
    changed = sorted(path for path in {*before, *after} if before.get(path) != after.get(path))
    if mode.startswith("bwrap") or not hostile.leaks:
        assert not changed, f"changed outside the box: {changed}"
    if mode.startswith("none") and hostile.file == "write_outside.py":
        assert changed, "documented: unconfined, a submission can write the problem folder and HOME"
    if hostile.file == "net_connect.py":
        assert (world.server.connections == 0) == mode.startswith("bwrap"), world.server.connections


def test_every_hostile_program_is_in_the_table() -> None:
    on_disk = sorted(path.name for path in HOSTILE_DIR.iterdir() if path.suffix in (".py", ".c"))
    assert on_disk == sorted(hostile.file for hostile in HOSTILE)
    for name in on_disk:
        head = (HOSTILE_DIR / name).read_text().splitlines()[0]
        assert head.startswith(("#", "/*")), f"{name} needs a header comment saying what it does and expects"


def test_the_leak_check_sees_an_escaped_daemon(world: World, subreaper: None) -> None:
    """The process check means something only if it finds a double-forked, setsid daemon the judge never saw."""
    source = prepare(world, next(hostile for hostile in HOSTILE if hostile.file == "daemon.py"))
    known = frozenset(_live_children())  # this process's own (multiprocessing's resource tracker): never killed
    subprocess.run([sys.executable, "-I", "-S", str(source)], input="x\n", text=True, capture_output=True,
                   timeout=30, check=True)
    # The daemon never ends by itself, so the check's full grace period would only be waited out: a short one
    # shows as well that it is found.
    assert _leftovers(world.tag, known, grace=0.5), "the daemon outlived its parent, so the check must report it"
    deadline = time.monotonic() + 5
    while _tagged(world.tag) and time.monotonic() < deadline:  # _leftovers killed it; wait for it to go
        _reap_zombies()
        time.sleep(0.05)
    assert not _tagged(world.tag)


def test_the_nonroot_judge_starts_as_its_user_in_its_own_groups(tmp_path: Path) -> None:
    """The nonroot modes mean something only if the judge really starts unprivileged, with no supplementary
    group, in the control groups handed to it."""
    user = _nonroot_user_or_skip()
    with nonroot.delegated(user.uid) as delegation:
        probe = "id -u; id -g; id -G; cat /proc/self/cgroup"
        done = subprocess.run(user.command(["/bin/sh", "-c", probe], delegation.join), capture_output=True,
                              text=True, env=user.env(tmp_path, tmp_path), timeout=30)
        assert done.returncode == 0, done.stderr
        uid, gid, groups, *cgroup_lines = done.stdout.splitlines()
        assert (uid, gid, groups) == (str(user.uid),) * 3
        joined = [line for line in cgroup_lines if line.endswith(f"/{delegation.folders[0].name}")]
        assert len(joined) == len(delegation.folders), (delegation.folders, cgroup_lines)
        assert not delegation.residue()


def test_the_server_is_reachable_outside_the_box(world: World) -> None:
    """The network test means something only if the server does answer on 127.0.0.1."""
    with socket.create_connection(("127.0.0.1", world.server.port), timeout=2) as connection:
        assert connection.makefile().readline().strip() == world.secret


# ---------------------------------------------------------------------------------------------------------------
# Requiring the sandbox, and saying which isolation a report had


def _path_without_bwrap(tmp_path: Path) -> str:
    """A PATH holding only python3 (the judge needs it for Python submissions), so bwrap cannot be found."""
    folder = tmp_path / "bin"
    folder.mkdir()
    (folder / "python3").symlink_to(resolve_toolchain(LANGUAGES["python3"]).paths["python"])
    assert shutil.which("bwrap", path=str(folder)) is None
    return str(folder)


def _echo_problem(tmp_path: Path) -> tuple[Path, Path]:
    problem = write_problem(tmp_path / "echo", {"1": ("7\n", "7\n")}, time_limit=1, memory_limit=64,
                            language_allowance=False)
    source = tmp_path / "echo.py"
    source.write_text("print(input())\n")
    return problem, source


@pytest.mark.parametrize("flags", [["--require-sandbox"], ["--sandbox", "bwrap"],
                                   ["--sandbox", "none", "--require-sandbox"]],
                         ids=["require-sandbox", "sandbox-bwrap", "require-and-none-conflict"])
def test_required_sandbox_missing_exits_2(tmp_path: Path, flags: list[str]) -> None:
    problem, source = _echo_problem(tmp_path)
    env = {**os.environ, "PATH": _path_without_bwrap(tmp_path)}
    done = subprocess.run([sys.executable, "-m", "judge", "run", str(problem), str(source), *flags],
                          capture_output=True, text=True, env=env, cwd=REPO, timeout=60)
    assert done.returncode == 2, (done.stdout, done.stderr)
    assert done.stdout == ""
    assert "Traceback" not in done.stderr
    lines = done.stderr.splitlines()
    assert len(lines) == 1 and "sandbox" in lines[0] and "bwrap" in lines[0], done.stderr


def test_auto_without_bwrap_runs_unconfined_and_says_so(tmp_path: Path) -> None:
    problem, source = _echo_problem(tmp_path)
    env = {**os.environ, "PATH": _path_without_bwrap(tmp_path)}
    done = subprocess.run([sys.executable, "-m", "judge", "run", str(problem), str(source), "--sandbox", "auto"],
                          capture_output=True, text=True, env=env, cwd=REPO, timeout=60)
    assert done.returncode == 0, done.stderr
    assert "isolation: none" in done.stdout
    assert "no sandbox" in done.stdout


@pytest.mark.parametrize("sandbox", ["bwrap", "none"])
@pytest.mark.parametrize("report", ["text", "json"])
def test_every_report_states_the_isolation(tmp_path: Path, sandbox: str, report: str) -> None:
    if sandbox == "bwrap" and bwrap_problem() is not None:
        pytest.skip(f"bwrap unusable here: {bwrap_problem()}")
    problem, source = _echo_problem(tmp_path)
    done = subprocess.run([sys.executable, "-m", "judge", "run", str(problem), str(source), "--sandbox", sandbox,
                           "--format", report], capture_output=True, text=True, cwd=REPO, timeout=60)
    assert done.returncode == 0, done.stderr
    if report == "json":
        assert json.loads(done.stdout)["isolation"] == sandbox
    else:
        assert f"isolation: {sandbox}" in done.stdout
