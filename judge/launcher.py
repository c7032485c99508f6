"""Starting a run's first process: by forking the judge (`Spawner`, a single run: a compile, a validator), or
through a launcher process started once per submission (`LaunchServer`, every test of a submission).

Forking the judge costs what copying a large Python process costs (about 3 ms against 1 ms for the same spawn
from a small process), and a fresh bubblewrap box per test costs 6-7 ms more, charged to the test's CPU time
when it runs in the test's control group. A `LaunchServer` pays both once: judge/forkserver.py runs unconfined
or as the PID 1 of one warm box, and starts each test with vfork + exec in the test's own control group.
"""

from __future__ import annotations

import os
import resource
import select
import signal
import socket
import subprocess
import sys
import tempfile
import time
from contextlib import ExitStack
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from judge import forkserver, proctree
from judge.containment import Contained
from judge.errors import JudgeFailure
from judge.own_limits import lower_limit
from judge.syscall_filter import LoadableFilter

MIB = 1024 * 1024
FALLBACK_STACK_BYTES = 8 * MIB
LAUNCHER_START_SECONDS = 30.0
EXIT_REPORT_SECONDS = 10.0
_BOOT = "import sys; sys.path.insert(0, sys.argv[1]); import judge.forkserver as f; f.main(int(sys.argv[2]))"


@dataclass(frozen=True)
class Exited:
    """How a run's first process ended: its wait status and rusage."""

    status: int
    cpu_seconds: float
    maxrss_bytes: int


@dataclass(frozen=True)
class Files:
    """A run's standard streams, open in the judge."""

    stdin: int
    stdout: int
    stderr: int


@dataclass(frozen=True)
class RunLimits:
    """The per-process limits of a run (the rlimits), decided once per submission."""

    cpu_backstop_seconds: int
    output_bytes: int
    memory_bytes: int
    limit_address_space: bool
    max_tasks: int | None

    def rlimits(self) -> list[tuple[int, int, int]]:
        """(resource, soft, hard) for each limit to set."""
        limits = [
            (resource.RLIMIT_FSIZE, self.output_bytes + 1, self.output_bytes + 1),
            (resource.RLIMIT_CORE, 0, 0),
        ]
        if self.max_tasks is not None:
            limits.append((resource.RLIMIT_NPROC, self.max_tasks, self.max_tasks))
        if self.limit_address_space:
            # glibc reserves RLIMIT_STACK of address space for every new thread: under RLIMIT_AS the stack keeps
            # Linux's usual 8 MiB, or no thread would ever fit.
            limits.append((resource.RLIMIT_STACK, FALLBACK_STACK_BYTES, resource.RLIM_INFINITY))
            limits.append((resource.RLIMIT_AS, self.memory_bytes, self.memory_bytes))
        else:
            # BOJ lets the stack grow as far as the memory limit, so deep recursion in C++ is not an RE.
            limits.append((resource.RLIMIT_STACK, self.memory_bytes, resource.RLIM_INFINITY))
        return limits


class Started(Protocol):
    """A started run: its pid as the judge sees it (None inside a box's PID namespace), and how it ended."""

    pid: int | None

    def wait(self, timeout: float) -> Exited | None:
        """How it ended, or None if it is still running after `timeout` seconds."""


class Starter(Protocol):
    """Starts a run's first process, already in the run's control group and under its limits."""

    # RSS of the process the run is a copy of before exec (ru_maxrss counts it: see containment._polled_peak).
    starter_rss: int
    # True when runs start inside an existing box: their argv is the bare command, their cwd and env the box's.
    in_box: bool

    def start(self, argv: list[str], cwd: Path, env: dict[str, str], files: Files, contained: Contained,
              limits: RunLimits) -> Started: ...


# --- a fork of the judge -------------------------------------------------------------------------------------


def child_setup(contained: Contained, limits: RunLimits, syscall_filter: LoadableFilter | None):
    """The function run in a fork of the judge between fork and exec: join the run's group, set the rlimits
    (with a per-process CPU backstop), load the seccomp filter last (it sets no_new_privs)."""
    rlimits = [(resource.RLIMIT_CPU, limits.cpu_backstop_seconds, limits.cpu_backstop_seconds + 1),
               *limits.rlimits()]

    def setup() -> None:
        for path in contained.join_files:
            with open(path, "w") as handle:
                handle.write("0")
        for which, soft, hard in rlimits:
            lower_limit(which, soft, hard)
        if syscall_filter is not None:
            syscall_filter.load()

    return setup


def start_process(argv: list[str], **popen: object) -> subprocess.Popen[bytes]:
    """`Popen` in a session of its own. The setup between fork and exec failing is the judge's failure: a
    `JudgeFailure` naming the program, not a bare `SubprocessError`."""
    try:
        return subprocess.Popen(argv, start_new_session=True, **popen)  # type: ignore[call-overload]
    except subprocess.SubprocessError as error:
        raise JudgeFailure(f"the judge could not start {argv[0]}: {error}") from None


@dataclass
class _Child:
    """A child of the judge, waited for through a pidfd and reaped with its rusage by `wait4`.

    The `Popen` is kept, and told the exit status once reaped: a `Popen` dropped while its child runs joins
    subprocess's list of children to reap, and the next `Popen` anywhere in the judge (another thread's) would
    reap this child before `wait4` could, or later a new child that got its pid.
    """

    process: subprocess.Popen[bytes]

    @property
    def pid(self) -> int:
        return self.process.pid

    def wait(self, timeout: float) -> Exited | None:
        if hasattr(os, "pidfd_open"):
            pidfd = os.pidfd_open(self.pid)
            try:
                if not select.select([pidfd], [], [], timeout)[0]:
                    return None
            finally:
                os.close(pidfd)
            _, status, usage = os.wait4(self.pid, 0)
        else:  # macOS: no pidfd
            deadline = time.monotonic() + timeout
            while True:
                pid, status, usage = os.wait4(self.pid, os.WNOHANG)
                if pid:
                    break
                if time.monotonic() > deadline:
                    return None
                time.sleep(0.002)
        self.process.returncode = os.waitstatus_to_exitcode(status)
        return Exited(status, usage.ru_utime + usage.ru_stime, _maxrss_bytes(usage.ru_maxrss))


@dataclass(frozen=True)
class Spawner:
    """Each run a fork of the judge (a compile, a validator, a checker: one run, not worth a launcher)."""

    syscall_filter: LoadableFilter | None
    in_box: bool = False

    @property
    def starter_rss(self) -> int:
        return proctree.own_rss() if sys.platform.startswith("linux") else 0

    def start(self, argv: list[str], cwd: Path, env: dict[str, str], files: Files, contained: Contained,
              limits: RunLimits) -> Started:
        process = start_process(argv, stdin=files.stdin, stdout=files.stdout, stderr=files.stderr, cwd=cwd,
                                env=env, preexec_fn=child_setup(contained, limits, self.syscall_filter))
        return _Child(process)


def _maxrss_bytes(maxrss: int) -> int:
    return maxrss if sys.platform == "darwin" else maxrss * 1024  # Linux counts KiB, macOS bytes


# --- a launcher process --------------------------------------------------------------------------------------


@dataclass
class _Launched:
    """A run started by the launcher: it reports the exit on the socket."""

    pid: int | None
    sock: socket.socket

    def wait(self, timeout: float) -> Exited | None:
        if not select.select([self.sock], [], [], timeout)[0]:
            return None
        report, _ = forkserver.receive(self.sock)
        if "status" not in report:
            raise JudgeFailure(f"the launcher stopped during a run: {report or 'it closed its socket'}")
        return Exited(int(report["status"]), float(report["cpu"]), int(report["maxrss"]))


@dataclass(frozen=True)
class WarmBox:
    """What a launcher that is the PID 1 of a warm box is told of it: its writable folders (mounted afresh for
    each test), its program folder (copied into a tmpfs of its own) and the uid each run drops to."""

    scratch: tuple[str, ...]
    program: str
    run_uid: int


class LaunchServer:
    """A launcher process (judge/forkserver.py) with the rlimits and seccomp filter of one submission.

    `command` starts judge/forkserver.py: unconfined, or wrapped by a sandbox to be the PID 1 of a warm `box`
    (its pids are not the judge's; it is root there, drops each run to the box's uid and resets the box after
    each run). `home_join_files` put it back in a control group of its own after it started a run in the run's
    group (empty without groups). A box that could not be reset after a test is replaced by a fresh one, started
    the same way, for the next test.
    """

    def __init__(self, command: list[str], cwd: Path, limits: RunLimits, syscall_filter: LoadableFilter | None,
                 home_join_files: tuple[Path, ...], box: WarmBox | None = None) -> None:
        self.in_box = box is not None
        self._command, self._cwd, self._home_join_files = command, cwd, home_join_files
        self._setup = {"do": "setup", "rlimits": limits.rlimits(),
                       "scratch": list(box.scratch) if box else [], "program": box.program if box else None,
                       "uid": box.run_uid if box else None,
                       "filter": syscall_filter.program.hex() if syscall_filter else None,
                       "syscall": syscall_filter.syscall_number if syscall_filter else 0}
        self._open()

    def _open(self) -> None:
        """Start a launcher and send it `setup`; its answer is awaited by the first run (`_set_up`)."""
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        self._sock = ours
        command = [*self._command, str(theirs.fileno())]  # the launcher's socket: the last argument
        self._stderr = tempfile.TemporaryFile()  # what the launcher says when it cannot start
        try:
            self._process = start_process(
                command, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=self._stderr, cwd=self._cwd,
                pass_fds=(theirs.fileno(),))
        finally:
            theirs.close()
        with ExitStack() as home:
            descriptors = [home.enter_context(open(path, "wb", buffering=0)).fileno()
                           for path in self._home_join_files]
            try:
                forkserver.send(self._sock, self._setup, descriptors)
            except OSError:
                pass  # it is gone already: the first run says why, from what it printed (`_set_up`)
        self._ready: dict | JudgeFailure | None = None  # its answer to `setup`, awaited by the first run

    @property
    def starter_rss(self) -> int:
        return int(self._set_up()["rss"])

    def _set_up(self) -> dict:
        """The launcher's answer to `setup`. Awaited here, not when it is started: meanwhile the judge goes on
        (it compiles the program), so the launcher's start (about 50 ms) costs the judging nothing. A launcher
        that could not start fails every run at once, with the same message."""
        if self._ready is None:
            try:
                if select.select([self._sock], [], [], LAUNCHER_START_SECONDS)[0]:
                    ready, _ = forkserver.receive(self._sock)
                else:
                    ready = {"error": f"it did not start within {LAUNCHER_START_SECONDS:.0f} s"}
            except OSError as error:  # it went away without reading its setup
                ready = {"error": error.strerror}
            if "ready" in ready:
                self._ready = ready
            else:
                self._stderr.seek(0)
                said = self._stderr.read().decode(errors="replace").strip().splitlines()
                self._ready = JudgeFailure(f"the launcher could not start: "
                                           f"{said[-1] if said else ready.get('error', 'it said nothing')}")
        if isinstance(self._ready, JudgeFailure):
            raise self._ready
        return self._ready

    def start(self, argv: list[str], cwd: Path, env: dict[str, str], files: Files, contained: Contained,
              limits: RunLimits) -> Started:
        answer = self._ask_to_start(argv, cwd, env, files, contained)
        if "unusable" in answer or "gone" in answer:
            # Not the submission's fault, nor a reason to fail its tests: the next test gets a fresh box. A box
            # that could not be reset is an anomaly worth a line; a launcher gone is what Ctrl-C of the judge's
            # process group does too, where a line would only spoil the one the command ends with.
            if "unusable" in answer:
                print(f"judge: the launcher could not be used again after a test ({answer['unusable']}); "
                      f"the next test gets a fresh one", file=sys.stderr)
            self.close()
            self._open()
            answer = self._ask_to_start(argv, cwd, env, files, contained)
        if "pid" not in answer:
            why = answer.get("error") or answer.get("unusable") or answer.get("gone") or "no answer"
            raise JudgeFailure(f"the launcher could not start {argv[0]}: {why}")
        return _Launched(None if self.in_box else int(answer["pid"]), self._sock)

    def _ask_to_start(self, argv: list[str], cwd: Path, env: dict[str, str], files: Files,
                      contained: Contained) -> dict:
        """The launcher's answer to a `run` request: `pid`, `error` (the program could not start), `unusable`
        (the box could not be reset after the test before), `gone` (the launcher is), or nothing (no answer)."""
        self._set_up()
        with ExitStack() as joins:
            descriptors = [files.stdin, files.stdout, files.stderr]
            descriptors += [joins.enter_context(open(path, "wb", buffering=0)).fileno()
                            for path in contained.join_files]
            request = {"do": "run", "argv": argv, "cwd": str(cwd), "env": env}
            try:
                forkserver.send(self._sock, request, descriptors)
                if not select.select([self._sock], [], [], LAUNCHER_START_SECONDS)[0]:
                    return {}
                answer, _ = forkserver.receive(self._sock)
            except OSError as error:
                return {"gone": f"the launcher is gone: {error.strerror}"}
        return answer or {"gone": "the launcher is gone"}

    def close(self) -> None:
        """Stop the launcher (and with it its box); also after an interruption. One that never started a run
        (the program did not compile) is killed at once: it holds nothing to clean, and may still be starting."""
        self._sock.close()
        # Through a pidfd: Popen.wait(timeout) polls with growing sleeps, about 15 ms of every submission.
        pidfd = os.pidfd_open(self._process.pid)
        try:
            if self._ready is None or not select.select([pidfd], [], [], EXIT_REPORT_SECONDS)[0]:
                os.killpg(self._process.pid, signal.SIGKILL)
        finally:
            os.close(pidfd)
        self._process.wait()
        self._stderr.close()

    def __enter__(self) -> LaunchServer:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()


def launcher_command(python: str, code_parent: Path) -> list[str]:
    """The command that starts judge/forkserver.py with `python` (isolated: no site, no user packages) from the
    judge package in `code_parent` (as the launcher sees it); the descriptor of its socket is added last."""
    return [python, "-I", "-S", "-c", _BOOT, str(code_parent)]
