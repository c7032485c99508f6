"""The judge's side of a launcher process (`Launcher`), started once per submission to start every test of it;
the launcher itself is judge/runner/launcher/server.py.

Forking the judge costs what copying a large Python process costs (about 3 ms against 1 ms for the same spawn
from a small process), and a fresh bubblewrap box per test costs 6-7 ms more, charged to the test's CPU time
when it runs in the test's control group. A `Launcher` pays both once: judge/runner/launcher/server.py runs
unconfined or as the PID 1 of one warm box, and starts each test with vfork + exec in the test's own control
group. A single run (a compile, a validator) is a fork of the judge instead (judge/runner/start.py).
"""

from __future__ import annotations

import _socket as socket  # the C module beneath `socket`, as in messages.py: socket.py costs the judge 1.5 ms
import os
import select
import signal
import subprocess
import sys
import tempfile
import time
from contextlib import ExitStack
from pathlib import Path

from msgspec import Struct

from judge.errors import JudgeFailure
from judge.runner.containment.protocol import Contained
from judge.runner.launcher import messages
from judge.runner.start import EXIT_REPORT_SECONDS, Exited, Files, RunLimits, Started, start_process
from judge.runner.syscall_filter import LoadableFilter

LAUNCHER_START_SECONDS = 30.0
# The judge package: the launcher is imported as judge.runner.launcher.server from the folder that holds it.
JUDGE_PACKAGE = Path(messages.__file__).parents[2]
_BOOT = (
    "import sys; sys.path.insert(0, sys.argv[1]); import judge.runner.launcher.server as s; "
    "s.main(int(sys.argv[2]), int(sys.argv[3]))"
)


class _Request(Struct, frozen=True):
    """A `run` request, kept to be sent again to a fresh box (its files stay open until the run has ended)."""

    argv: list[str]
    cwd: Path
    env: dict[str, str]
    files: Files
    contained: Contained


class _Launched(Struct, eq=False):
    """A run started by the launcher: it reports the exit on the socket. Where a start is not answered (in a box,
    in a control group: `Launcher.answers_pid`), an answer before the exit says the run did not start
    (`Launcher.not_started`), and a run may be sent while an earlier one goes on (`Launcher.queues`): the
    launcher starts it once that one has ended, and answers runs in the order sent, so each is waited for in
    that order."""

    pid: int | None
    launcher: Launcher
    request: _Request
    seq: int = 0  # what the launcher knows it by (a `drop` names it)
    queued_until: float | None = None
    """When (time.monotonic) the run sent before it was answered for the last time, where it was sent behind
    one: it started no sooner (None: it was not, or that run is not answered yet)."""

    def wait(self, timeout: float) -> Exited | None:
        deadline = time.monotonic() + timeout
        while select.select([self.launcher.sock], [], [], max(0.0, deadline - time.monotonic()))[0]:
            report, _ = messages.receive(self.launcher.sock)
            if "status" in report:
                self.launcher.answered(self)
                cpu, maxrss = float(report["cpu"]), int(report["maxrss"])
                return Exited(int(report["status"]), cpu, maxrss, report.get("started"))
            if self.pid is not None or not report:
                raise JudgeFailure(f"the launcher stopped during a run: {report or 'it closed its socket'}")
            self.launcher.not_started(report, self)  # started again, in a fresh box
        return None

    def cancel(self) -> None:
        """The run is not wanted (it was sent ahead, and the judging stopped): `Launcher.drop`."""
        self.launcher.drop(self)


class WarmBox(Struct, frozen=True):
    """What a launcher that is the PID 1 of a warm box is told of it: its writable folders (mounted afresh for
    each test), its program folder (copied into a tmpfs of its own), where its own code is mounted (unmounted
    once it has started) and the uid each run drops to."""

    scratch: tuple[str, ...]
    program: str
    code: str
    run_uid: int


class Launcher:
    """A launcher process (server.py) with the rlimits and seccomp filter of one submission.

    `command` starts server.py: unconfined, or wrapped by a sandbox to be the PID 1 of a warm `box` (its pids
    are not the judge's; it is root there, drops each run to the box's uid and resets the box after
    each run). `home_join_files` put it back in a control group of its own after it started a run in the run's
    group (empty without groups). A box that could not be reset after a test is replaced by a fresh one, started
    the same way, for the next test.
    """

    def __init__(
        self,
        command: list[str],
        cwd: Path,
        limits: RunLimits,
        syscall_filter: LoadableFilter | None,
        home_join_files: tuple[Path, ...],
        box: WarmBox | None = None,
    ) -> None:
        self.in_box = box is not None
        self._command, self._cwd, self._home_join_files = command, cwd, home_join_files
        self._setup = {
            "do": "setup",
            "rlimits": limits.rlimits(),
            "scratch": list(box.scratch) if box else [],
            "program": box.program if box else None,
            "code": box.code if box else None,
            "uid": box.run_uid if box else None,
            "filter": syscall_filter.program.hex() if syscall_filter else None,
            "syscall": syscall_filter.syscall_number if syscall_filter else 0,
        }
        self._unanswered: list[_Launched] = []  # runs sent and not yet answered for the last time, oldest first
        self._sent = 0  # runs sent so far: the `seq` of the last
        self._open()

    def _open(self) -> None:
        """Start a launcher and send it `setup`; its answer is awaited by the first run (`_set_up`)."""
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        control, their_control = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        self._sock, self._control = ours, control
        command = [*self._command, str(theirs.fileno()), str(their_control.fileno())]  # its sockets: the last two
        self._stderr = tempfile.TemporaryFile()  # noqa: SIM115 -- open while the launcher lives; what it says if it cannot start
        try:
            self._process = start_process(
                command,
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=self._stderr,
                cwd=self._cwd,
                pass_fds=(theirs.fileno(), their_control.fileno()),
            )
        finally:
            theirs.close()
            their_control.close()
        with ExitStack() as home:
            descriptors = [home.enter_context(open(path, "wb", buffering=0)).fileno() for path in self._home_join_files]
            try:
                messages.send(self._sock, self._setup, descriptors)
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
                    ready, _ = messages.receive(self._sock)
                else:
                    ready = {"error": f"it did not start within {LAUNCHER_START_SECONDS:.0f} s"}
            except OSError as error:  # it went away without reading its setup
                ready = {"error": error.strerror}
            if "ready" in ready:
                self._ready = ready
            else:
                self._stderr.seek(0)
                said = self._stderr.read().decode(errors="replace").strip().splitlines()
                self._ready = JudgeFailure(
                    f"the launcher could not start: {said[-1] if said else ready.get('error', 'it said nothing')}"
                )
        if isinstance(self._ready, JudgeFailure):
            raise self._ready
        return self._ready

    @property
    def sock(self) -> socket.socket:
        return self._sock

    def start(
        self, argv: list[str], cwd: Path, env: dict[str, str], files: Files, contained: Contained, limits: RunLimits
    ) -> Started:
        request = _Request(argv, cwd, env, files, contained)
        answer = self._ask_to_start(request)
        if "unusable" in answer or "gone" in answer:
            self._replace(answer)
            answer = self._ask_to_start(request)
        if "sent" in answer:
            launched = _Launched(None, self, request, int(answer["seq"]))
            self._unanswered.append(launched)
            return launched
        if "pid" not in answer:
            raise self._could_not_start(request, answer)
        return _Launched(int(answer["pid"]), self, request)

    def queues(self, contained: Contained) -> bool:
        """Whether a start only sends the run, started once the runs sent before it have ended (where the start
        is not answered: `answers_pid`): then the next test's run may be sent while this one goes on, and the
        launcher finds it waiting when it is done with this one, instead of sleeping until the judge has checked
        the output (one wake-up of the launcher less per test; server.py does not read requests while a run goes
        on, so sending one then wakes nobody)."""
        return not self.answers_pid(contained)

    def answered(self, launched: _Launched) -> None:
        """`launched`, the oldest run sent, was answered for the last time: the next one may start now."""
        if launched in self._unanswered:
            self._unanswered.remove(launched)
        if self._unanswered:
            self._unanswered[0].queued_until = time.monotonic()

    def not_started(self, answer: dict, launched: _Launched) -> None:
        """Where a start is not answered: the launcher answered `launched` before the run's end, so it did not
        start it. Started again in a fresh box if this one could not be reset (as `start` does), with every run
        sent after it; else the judge's failure."""
        if "unusable" not in answer:
            self.answered(launched)
            raise self._could_not_start(launched.request, answer)
        self._replace(answer)

    def drop(self, launched: _Launched) -> None:
        """Stop `launched`, the oldest run sent and not answered: the launcher drops it if it has not started, or
        kills it, and answers either way (server.py). A launcher that does not answer is replaced."""
        try:
            messages.send(self._control, {"drop": launched.seq})
            answered = select.select([self._sock], [], [], EXIT_REPORT_SECONDS)[0]
            answer = messages.receive(self._sock)[0] if answered else {}
        except OSError:
            answer = {}
        self.answered(launched)
        if not answer or "unusable" in answer:
            self._replace(answer or {"gone": "it did not answer a drop"})

    def _replace(self, answer: dict) -> None:
        """A fresh launcher (and box) for the next run, after `answer` said this one cannot serve it.

        Not the submission's fault, nor a reason to fail its tests. A box that could not be reset is an anomaly
        worth a line; a launcher gone is what Ctrl-C of the judge's process group does too, where a line would
        only spoil the one the command ends with."""
        if "unusable" in answer:
            print(
                f"judge: the launcher could not be used again after a test ({answer['unusable']}); "
                f"the next test gets a fresh one",
                file=sys.stderr,
            )
        self.close()
        self._open()
        for launched in self._unanswered:  # in the order sent, as the fresh launcher answers them
            answer = self._ask_to_start(launched.request)
            if "sent" not in answer:
                raise self._could_not_start(launched.request, answer)
            launched.seq = int(answer["seq"])

    @staticmethod
    def _could_not_start(request: _Request, answer: dict) -> JudgeFailure:
        why = answer.get("error") or answer.get("unusable") or answer.get("gone") or "no answer"
        return JudgeFailure(f"the launcher could not start {request.argv[0]}: {why}")

    def answers_pid(self, contained: Contained) -> bool:
        """Whether the launcher answers a start with the run's pid: only where the judge follows a run by it (not
        in a box, whose pids are not the judge's; not in a control group, which holds the whole run), as
        server.py decides from the same facts (its box, the join files it is sent)."""
        return not self.in_box and not (contained.join_descriptors or contained.join_files)

    def _ask_to_start(self, request: _Request) -> dict:
        """The launcher's answer to a `run` request: `pid`, `error` (the program could not start), `unusable`
        (the box could not be reset after the test before), `gone` (the launcher is), or nothing (no answer).
        Where no pid is answered (`answers_pid`) a start is not awaited (`sent`, with the `seq` the run is known
        by): an answer comes only if the run did not start (`_Launched`)."""
        self._set_up()
        files, contained = request.files, request.contained
        with ExitStack() as joins:
            descriptors = [files.stdin, files.stdout, files.stderr]
            descriptors += contained.join_descriptors or [
                joins.enter_context(open(path, "wb", buffering=0)).fileno() for path in contained.join_files
            ]
            self._sent += 1
            message = {"do": "run", "seq": self._sent, "argv": request.argv, "cwd": str(request.cwd)}
            message["env"] = request.env
            try:
                messages.send(self._sock, message, descriptors)
                if not self.answers_pid(contained):
                    return {"sent": True, "seq": self._sent}
                if not select.select([self._sock], [], [], LAUNCHER_START_SECONDS)[0]:
                    return {}
                answer, _ = messages.receive(self._sock)
            except OSError as error:
                return {"gone": f"the launcher is gone: {error.strerror}"}
        return answer or {"gone": "the launcher is gone"}

    def close(self) -> None:
        """Stop the launcher (and with it its box); also after an interruption. One that never started a run
        (the program did not compile) is killed at once: it holds nothing to clean, and may still be starting."""
        self._sock.close()
        self._control.close()  # what tells it during a run: it kills the run and leaves
        # Through a pidfd: Popen.wait(timeout) polls with growing sleeps, about 15 ms of every submission.
        pidfd = os.pidfd_open(self._process.pid)
        try:
            if self._ready is None or not select.select([pidfd], [], [], EXIT_REPORT_SECONDS)[0]:
                os.killpg(self._process.pid, signal.SIGKILL)
        finally:
            os.close(pidfd)
        self._process.wait()
        self._stderr.close()

    def __enter__(self) -> Launcher:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()


def launcher_command(python: str, code_parent: Path) -> list[str]:
    """The command that starts server.py with `python` (isolated: no site, no user packages) from the judge
    package in `code_parent` (as the launcher sees it); the descriptors of its two sockets are added last."""
    return [python, "-I", "-S", "-c", _BOOT, str(code_parent)]
