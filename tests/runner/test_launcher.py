"""The launcher's life around a submission (judge/runner/launcher/client.py): its answer is awaited by the first
run, so that it starts while the program compiles; one that cannot start fails every run at once; one never
used is not waited for."""

from __future__ import annotations

import marshal
import os
import select
import shutil
import signal
import socket
import sys
import time
from pathlib import Path

import pytest

from judge.errors import JudgeFailure
from judge.runner import starter_choice
from judge.runner.containment.choice import available_containments, choose_containment
from judge.runner.containment.protocol import Contained, Guards
from judge.runner.launcher import client, messages
from judge.runner.launcher.client import JUDGE_PACKAGE, Launcher, WarmBox, launcher_command
from judge.runner.sandbox import (
    LAUNCHER_CODE,
    PROGRAM,
    Bubblewrap,
    Mounts,
    ToolchainView,
    bwrap_problem,
    choose_sandbox,
)
from judge.runner.start import Exited, Files, RunLimits, Spawner, Starter
from judge.runner.starter_choice import SYSTEM_PYTHON, BoxPython

pytestmark = pytest.mark.skipif(not hasattr(os, "pidfd_open"), reason="the launcher needs pidfds (Linux)")

LIMITS = RunLimits(cpu_backstop_seconds=5, output_bytes=1 << 20, memory_bytes=256 << 20,
                   limit_address_space=False, max_tasks=None)
CONTAINED = Contained((), Guards(limit_address_space=False, max_tasks=None), "token")
REPOSITORY = Path(__file__).resolve().parents[2]
# Appended to a copy of judge/runner/launcher/box_init.py, never to the judge's own: a reset that fails as the
# launcher once did on what a test left (RecursionError on deep folders), here on a file of a name no submission
# can know.
FAULT = '''
_real_fresh_folders = fresh_folders


def fresh_folders(libc, scratch):
    if os.path.exists("/box/make-the-reset-fail-in-this-test-only"):
        raise RecursionError("maximum recursion depth exceeded (a fault the test put in)")
    return _real_fresh_folders(libc, scratch)
'''


def echo(launcher: Launcher, tmp_path: Path) -> int:
    """Run `echo hello` into tmp_path/out through `launcher`; its wait status."""
    with open(os.devnull, "rb") as stdin, open(tmp_path / "out", "wb") as out:
        started = launcher.start(["/bin/echo", "hello"], tmp_path, {"PATH": "/usr/bin:/bin"},
                               Files(stdin.fileno(), out.fileno(), out.fileno()), CONTAINED, LIMITS)
    exited = started.wait(10)
    assert exited is not None, "echo did not end within 10 s"
    return exited.status


def test_a_launcher_that_cannot_start_fails_every_run_with_its_words(tmp_path: Path) -> None:
    broken = ["/bin/sh", "-c", "echo 'no python here' >&2; exit 3"]
    with Launcher(broken, tmp_path, LIMITS, None, ()) as launcher:
        for _ in range(2):  # the second at once, with the same message: not another wait for an answer
            with pytest.raises(JudgeFailure, match="the launcher could not start: no python here"):
                echo(launcher, tmp_path)


def test_a_launcher_starts_runs_after_its_answer(tmp_path: Path) -> None:
    with Launcher(launcher_command(sys.executable, REPOSITORY), tmp_path, LIMITS, None, ()) as launcher:
        assert echo(launcher, tmp_path) == 0
        assert launcher.starter_rss > 0
    assert (tmp_path / "out").read_text() == "hello\n"


ORPHAN_THAT_BURNED = """
import os, time
reader, writer = os.pipe()
if os.fork() == 0:
    while time.process_time() < 0.3:
        pass
    os._exit(0)
os.close(writer)
os.read(reader, 1)  # end of file: the child is ending, and is never reaped here
"""


def test_outside_a_box_what_outlived_a_runs_first_process_is_counted_to_it(tmp_path: Path) -> None:
    """Outside a box the launcher reaps a run's orphans (a subreaper), and their CPU time is the run's: as with a
    box of its own, whose bwrap returns before its PID 1, which reaped the program, has been waited for. Here the
    orphan is a child that burned 0.3 s and ended unreaped; without a control group nothing else counts it."""
    with Launcher(launcher_command(sys.executable, REPOSITORY), tmp_path, LIMITS, None, ()) as launcher, \
            open(os.devnull, "rb") as stdin, open(tmp_path / "out", "wb") as out:
        started = launcher.start([sys.executable, "-c", ORPHAN_THAT_BURNED], tmp_path, {},
                                 Files(stdin.fileno(), out.fileno(), out.fileno()), CONTAINED, LIMITS)
        exited = started.wait(10)
    assert exited is not None and exited.status == 0, (tmp_path / "out").read_text()
    assert exited.cpu_seconds >= 0.3, exited


@pytest.mark.parametrize("starter", ["launcher", "fork of the judge"])
def test_a_run_starts_with_every_signal_at_its_default(tmp_path: Path, starter: str) -> None:
    """A judge started under nohup ignores SIGHUP (a shell's background job, SIGINT and SIGQUIT), and what it
    starts inherits that; an ignored signal stays ignored across exec, but a run must start as on any judge, every
    signal at its default: none ignored, none caught (/proc/self/status, read by the run itself). Every test is
    started by a launcher; a compile, a checker, an interactive problem's submission by a fork of the judge.
    Signals 32 and 33 are glibc's own: its posix_spawn leaves them ignored, and a program's glibc sets its
    handlers for them when it needs them."""
    ignored = {number: signal.signal(number, signal.SIG_IGN) for number in (signal.SIGHUP, signal.SIGUSR2)}
    try:
        if starter == "launcher":
            with Launcher(launcher_command(sys.executable, REPOSITORY), tmp_path, LIMITS, None, ()) as launcher:
                status = run_in(launcher, tmp_path, ["/bin/cat", "/proc/self/status"], cwd=tmp_path)
        else:
            status = run_in(Spawner(None), tmp_path, ["/bin/cat", "/proc/self/status"], cwd=tmp_path)
    finally:
        for number, handler in ignored.items():
            signal.signal(number, handler)
    masks = dict(line.split(":\t") for line in status.splitlines() if line.startswith(("SigIgn", "SigCgt")))
    ignored_bits, caught_bits = int(masks["SigIgn"], 16), int(masks["SigCgt"], 16)
    glibc_own = 1 << (32 - 1) | 1 << (33 - 1)
    assert (ignored_bits & ~glibc_own, caught_bits) == (0, 0), masks


def test_a_launcher_gone_between_two_tests_is_replaced(tmp_path: Path, capfd: pytest.CaptureFixture[str]) -> None:
    """A launcher that died after a test (nothing known kills it: here the test does) costs the next test
    nothing but a fresh launcher's start, without a word (Ctrl-C of the judge's process group ends launchers too,
    and the command's own last line must stay its last)."""
    with Launcher(launcher_command(sys.executable, REPOSITORY), tmp_path, LIMITS, None, ()) as launcher:
        assert echo(launcher, tmp_path) == 0
        first = launcher._process
        first.kill()
        os.waitid(os.P_PID, first.pid, os.WEXITED | os.WNOWAIT)  # dead, and left to the `Launcher` to reap
        assert echo(launcher, tmp_path) == 0
        assert launcher._process is not first
    assert capfd.readouterr().err == ""


def test_a_launcher_never_used_is_killed_not_awaited(tmp_path: Path) -> None:
    """After a CE no test runs: the launcher, perhaps still starting, is killed and reaped at once."""
    sleeper = ["/bin/sh", "-c", "sleep 60"]
    launcher = Launcher(sleeper, tmp_path, LIMITS, None, ())
    pid = launcher._process.pid
    launcher.close()
    assert launcher._process.returncode is not None
    with pytest.raises(ProcessLookupError):
        os.kill(pid, 0)


def run_in(launcher: Starter, tmp_path: Path, argv: list[str], cwd: Path = PROGRAM) -> str:
    """Run `argv` through `launcher` in `cwd` (default: a box's program folder); what it printed. Its files stay
    open until it has ended, as `execute.run` keeps them: a box that could not be reset is told only then, and
    the run sent again to a fresh one."""
    with open(os.devnull, "rb") as stdin, open(tmp_path / "out", "wb") as out:
        started = launcher.start(argv, cwd, {"PATH": "/usr/bin:/bin"},
                               Files(stdin.fileno(), out.fileno(), out.fileno()), CONTAINED, LIMITS)
        exited = started.wait(10)
    assert exited is not None and exited.status == 0, (tmp_path / "out").read_text()
    return (tmp_path / "out").read_text()


@pytest.mark.skipif(bwrap_problem() is not None or os.geteuid() != 0 or not Path(SYSTEM_PYTHON).is_file(),
                    reason="a warm box needs bwrap, a judge that is root and the system's Python")
def test_a_box_that_cannot_be_reset_is_replaced_for_the_next_test(tmp_path: Path, capfd: pytest.CaptureFixture[str],
                                                                   ) -> None:
    """Nothing a test leaves is known to make the reset fail, so the fault is put into a copy of the launcher's
    code (a seam of this test only: a submission reaches neither the judge's code nor its copy). The test after
    the failed reset runs in a fresh box, the one after it in that same box, and the judge says what failed."""
    code = tmp_path / "code" / "judge"
    shutil.copytree(REPOSITORY / "judge", code, ignore=shutil.ignore_patterns("__pycache__"))
    with open(code / "runner" / "launcher" / "box_init.py", "a") as box_init:
        box_init.write(FAULT)
    program = tmp_path / "program"
    program.mkdir()
    program.chmod(0o755)
    shutil.copy(Path(__file__).parent / "warm_box" / "box_identity.py", program)
    sandbox = choose_sandbox("bwrap")
    assert isinstance(sandbox, Bubblewrap) and sandbox.warm_box_uid is not None
    command = sandbox.wrap(launcher_command(SYSTEM_PYTHON, LAUNCHER_CODE.parent),
                           Mounts(program_dir=program, launcher_code=code), as_init=True)
    box = WarmBox(sandbox.scratch, str(PROGRAM), str(LAUNCHER_CODE), sandbox.warm_box_uid)
    argv = [SYSTEM_PYTHON, f"{PROGRAM}/box_identity.py"]
    with Launcher(command, program, LIMITS, sandbox.syscall_filter, (), box) as launcher:
        boxes = [run_in(launcher, tmp_path, [*argv, "make-the-reset-fail-in-this-test-only"]),
                 run_in(launcher, tmp_path, argv), run_in(launcher, tmp_path, argv)]
    assert boxes[0] != boxes[1] == boxes[2]
    said = capfd.readouterr().err
    assert "could not be used again after a test" in said and "a fault the test put in" in said, said


@pytest.mark.skipif(bwrap_problem() is not None or os.geteuid() != 0 or not Path(SYSTEM_PYTHON).is_file(),
                    reason="a warm box needs bwrap, a judge that is root and the system's Python")
def test_in_a_box_a_run_is_answered_once_at_its_end(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The judge has no use for a pid of the box's: a run in a warm box costs one message each way (the request,
    the end), so one wake-up of the judge. Its end says when the launcher started it (the wall clock's start)."""
    program = tmp_path / "program"
    program.mkdir()
    program.chmod(0o755)
    sandbox = choose_sandbox("bwrap")
    assert isinstance(sandbox, Bubblewrap) and sandbox.warm_box_uid is not None
    command = sandbox.wrap(launcher_command(SYSTEM_PYTHON, LAUNCHER_CODE.parent),
                           Mounts(program_dir=program, launcher_code=REPOSITORY / "judge"), as_init=True)
    box = WarmBox(sandbox.scratch, str(PROGRAM), str(LAUNCHER_CODE), sandbox.warm_box_uid)
    reader, writer = os.pipe()
    with Launcher(command, program, LIMITS, sandbox.syscall_filter, (), box) as launcher, \
            open(tmp_path / "out", "wb") as out:
        assert launcher.starter_rss > 0  # its answer to `setup`, awaited
        received = receipts(monkeypatch)
        asked = time.monotonic()
        exited = cat_answered_once(launcher, PROGRAM, Files(reader, out.fileno(), out.fileno()), CONTAINED, writer)
        assert exited.started_at is not None and asked <= exited.started_at <= time.monotonic()
    assert [list(message) for message in received] == [["status", "cpu", "maxrss", "started"]]
    os.close(reader)
    assert (tmp_path / "out").read_text() == "said\n"


def cat_answered_once(launcher: Launcher, cwd: Path, files: Files, contained: Contained, writer: int) -> Exited:
    """Start cat through `launcher`: no pid comes back, nothing until its input (`writer`, closed here) ends, then
    one answer, its end; nothing else is sent."""
    started = launcher.start(["/bin/cat"], cwd, {"PATH": "/usr/bin:/bin"}, files, contained, LIMITS)
    assert started.pid is None
    assert started.wait(2) is None  # cat waits for its input: nothing to say until it ends
    os.write(writer, b"said\n")
    os.close(writer)
    exited = started.wait(10)
    assert exited is not None and exited.status == 0
    assert not select.select([launcher.sock], [], [], 0)[0]  # nothing else was sent
    return exited


def receipts(monkeypatch: pytest.MonkeyPatch) -> list[dict]:
    """Every message the judge receives from a launcher from now on, in order."""
    received: list[dict] = []
    original = messages.receive

    def receive(sock: socket.socket) -> tuple[dict, list[int]]:
        message, descriptors = original(sock)
        received.append(message)
        return message, descriptors

    monkeypatch.setattr(client.messages, "receive", receive)
    return received


@pytest.mark.skipif("cgroup" not in available_containments(), reason="needs a control group")
def test_in_a_control_group_a_run_is_answered_once_at_its_end(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Outside a box too, a run in a control group needs no pid (the group holds and kills the whole run): one
    message each way, one wake-up of the judge per test. A run that cannot start is still told at once."""
    containment = choose_containment("cgroup")
    home, run = containment.home(), containment.open(256, 8)
    assert home is not None
    reader, writer = os.pipe()
    try:
        with Launcher(launcher_command(sys.executable, REPOSITORY), tmp_path, LIMITS, None,
                      home.contained.join_files) as launcher, open(tmp_path / "out", "wb") as out:
            assert launcher.starter_rss > 0  # its answer to `setup`, awaited
            received = receipts(monkeypatch)
            files = Files(reader, out.fileno(), out.fileno())
            cat_answered_once(launcher, tmp_path, files, run.contained, writer)
            assert [list(message) for message in received] == [["status", "cpu", "maxrss", "started"]]
            missing = launcher.start(["/no/such/program"], tmp_path, {}, files, run.contained, LIMITS)
            with pytest.raises(JudgeFailure, match="could not start /no/such/program"):
                missing.wait(10)
    finally:
        os.close(reader)
        run.kill()
        run.close()
        home.close()
    assert (tmp_path / "out").read_text() == "said\n"


@pytest.mark.skipif("cgroup" not in available_containments(), reason="needs a control group")
def test_the_launchers_work_before_a_run_is_not_counted_to_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The kernel adds a task's CPU time to the group it is in when it next counts (when it sleeps, at a tick),
    so the launcher's work since it last did (reading the request: here one made long on purpose) must be
    counted before it joins the run's group, whose CPU time is the submission's (spawning.py's
    `settle_cpu_time`). Counted there, it would be up to a tick's worth per run: over five runs, far more than
    a quarter of the reading each."""
    padding = [[number] for number in range(15000)]
    request = marshal.dumps({"padding": padding}, messages.MARSHAL_VERSION)
    started_at = time.thread_time()
    marshal.loads(request)
    reading = time.thread_time() - started_at  # about what the launcher (the same interpreter) spends reading it
    original = messages.send

    def send(sock: socket.socket, message: dict, fds: list[int] = ()) -> None:  # type: ignore[assignment]
        original(sock, {**message, "padding": padding} if message.get("do") == "run" else message, fds)

    monkeypatch.setattr(client.messages, "send", send)
    containment = choose_containment("cgroup")
    home, run = containment.home(), containment.open(256, 8)
    assert home is not None
    runs = 5
    reaped = 0.0
    try:
        with Launcher(launcher_command(sys.executable, REPOSITORY), tmp_path, LIMITS, None,
                      home.contained.join_files) as launcher, open(os.devnull, "rb") as stdin, \
                open(tmp_path / "out", "wb") as out:
            for _ in range(runs):
                started = launcher.start(["/bin/true"], tmp_path, {"PATH": "/usr/bin:/bin"},
                                         Files(stdin.fileno(), out.fileno(), out.fileno()), run.contained, LIMITS)
                exited = started.wait(10)
                assert exited is not None and exited.status == 0
                reaped += exited.cpu_seconds
            counted = run.sample().cpu_seconds  # the group's count: the runs' CPU time as the judge reports it
    finally:
        run.kill()
        run.close()
        home.close()
    assert counted - reaped < runs * reading / 4, (counted, reaped, reading)


@pytest.mark.skipif(bwrap_problem() is not None, reason="a warm box needs bwrap")
def test_without_a_system_python_a_box_runs_its_launcher_with_the_python_it_is_given(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The runner knows no language: the judging gives it the Python to show in a box (its Python 3 toolchain),
    asked only where the machine has no system Python; without one, no warm box (each test gets a box of its own)."""
    monkeypatch.setattr(starter_choice, "SYSTEM_PYTHON", str(tmp_path / "no-python-here"))
    sandbox, mounts = choose_sandbox("bwrap"), Mounts(program_dir=tmp_path)
    python = BoxPython("/opt/python/bin/python3", ToolchainView(shown=(Path("/opt/python"),)))
    launcher = starter_choice._warm_box_launcher(sandbox, mounts, lambda: python)
    assert launcher is not None
    command, box_mounts = launcher
    assert command == launcher_command(python.interpreter, LAUNCHER_CODE.parent)
    assert Path("/opt/python") in box_mounts.toolchain.shown and box_mounts.launcher_code == JUDGE_PACKAGE
    assert starter_choice._warm_box_launcher(sandbox, mounts, lambda: None) is None
