"""The launcher process: starts each test's program on request, so the judge never forks itself per test.

Started once per submission (by client.py), outside any sandbox or inside a warm bubblewrap box as the box's
PID 1, it takes requests on a SOCK_SEQPACKET socket (its descriptor is its argument before last), each a dict
with its open files attached (messages.py):

- `setup` (first, once): the rlimits every test shares (the submission's limits never change between tests),
  the seccomp filter, and in a box its writable folders, its program folder and where its own code is mounted.
  The launcher applies them to itself, so every child inherits them and can be started with vfork + exec
  (about 1 ms less than a fork of a Python process).
- `run`: argv, cwd, env, with stdin, stdout, stderr and the control group's join files attached. The launcher
  writes "0" to each join file (it moves into the test's group), starts the program there, moves back to its own
  group (its home join files, sent with `setup`), answers `{"pid"}` only where that is how the judge follows
  the run: not in a box, whose pids are not the judge's, and not in a control group, which holds and kills the
  whole run (one message less is one wake-up of the judge less per test). When the program ends it answers with
  its wait status, rusage and when it started it (`time.monotonic`: a request may wait for the box's reset
  after the test before, which is no one's wall time). A request it cannot start is answered at once, with
  `error` or `unusable`. A child could instead join the group itself
  between fork and exec, but a fork of this Python process costs about 1 ms more than vfork, and its
  copy-on-write faults after joining were charged to the test (1 ms of CPU time on a trivial C program,
  measured); in the group the launcher itself is only the vfork, and briefly counts as one of the group's
  processes. Then, before it takes the next request, it kills
  what the test left: in a box every other process of the box (`kill(-1)` from PID 1 reaches exactly the
  box's processes), and it gives the box fresh writable folders (and, made while the test ran, a fresh IPC
  namespace: box_init.py); outside a box the orphans it inherited as a subreaper, before it answers,
  since their rusage is the test's (a box of its own leaves its PID 1 behind, holding the program's). The next
  test finds nothing.
  A box that could not be reset serves no other test: the next `run` is answered `{"unusable"}` with what
  failed, and the judge starts a fresh box for it.
- Runs are served in the order they came, one at a time, each answered in turn: the judge sends the next
  test's `run` while this one goes on. While a run goes on the launcher does not read its requests (one
  arriving would wake it: one more wake-up per test), only a second socket, the control socket (its descriptor
  the last argument), on which the judge writes nothing but a `drop` and which it closes when it is gone.
- `drop` (on the control socket), with a run's `seq` (each `run` has one, counted up by the judge): the judge no
  longer wants that run (the next test's, after a failure that stops the judging). Running: it is killed and
  answered as any run; not started yet: it is answered `{"dropped"}` when its turn comes; answered already:
  nothing is left to do.

In a box it is root without a user namespace (with the few capabilities judge/runner/sandbox.py lists) and each
run drops to the box's uid (`uid` in `setup`): so it can put a fresh /proc over the box's with `hidepid=invisible`
(its own counters, which grow with every test, are nobody else's to read), and reset the box's PID counter
before each run, so every test's first process is PID 2 as in a box of its own: nothing tells a test which one
it is (box_init.py). It is not dumpable, and as the box's PID 1 no signal from inside the box reaches it.
Only the standard library, box_init.py (and copying.py, through it), own_limits.py and spawning.py (beside it)
are imported, all at its start, and the packages they are imported through (judge/__init__.py and the runner's
and launcher's, docstrings only: none may import anything, tests/runner/test_launcher_imports.py checks it). A box
sees nothing else, and once the launcher has taken it over, not even them. Of the library only what starts fast:
the launcher starts while the judge compiles the program, and the first test waits for it.
"""

from __future__ import annotations

# The C modules beneath `socket` and `signal`: socket.py and signal.py add only enums and helpers the launcher
# never uses, and their imports (selectors, enum) cost about 1.5 and 1 ms of every launcher's start.
import _signal as signal
import _socket as socket
import ctypes
import errno
import os
import select
import sys
import time

from judge.runner.launcher import box_init, spawning
from judge.runner.launcher.messages import receive, send
from judge.runner.launcher.own_limits import PR_SET_NO_NEW_PRIVS, PreparedFilter, lower_limit

PR_SET_DUMPABLE = 4
PR_SET_CHILD_SUBREAPER = 36
FIRST_PID_MINUS_ONE = b"1"  # written to ns_last_pid: the next process of the box is PID 2


class Launcher:
    """The launcher's state: its socket, its home group, and what it empties between tests."""

    def __init__(self, sock: socket.socket, control: socket.socket) -> None:
        self.sock = sock
        self.control = control
        self.home: list[int] = []
        self.libc = ctypes.CDLL(None, use_errno=True)
        self.is_box_init = os.getpid() == 1
        self.run_uid: int | None = None  # the box's uid each run drops to (None: runs keep the launcher's)
        self.last_pid: int | None = None  # ns_last_pid of the box, open for writing
        self.scratch: list[box_init.Scratch] = []  # the box's writable folders, mounted afresh for each test
        self.sockets: box_init.SocketCount | None = None  # the warm box's, which no test may leave more of
        self.unusable: str | None = None  # why the box could not be reset after a test
        self.program: str | None = None  # the box's program folder, until it is copied in (the first run)
        self.rlimits: list[tuple[int, int, int]] = []  # (resource, soft, hard) of every run
        self.dropped: set[int] = set()  # the `seq` of runs dropped before their turn came
        self.served = -1  # the `seq` of the last run started or dropped: a drop of it or of one before is late

    def setup(self, request: dict, fds: list[int]) -> dict:
        libc = self.libc
        libc.prctl(PR_SET_DUMPABLE, 0, 0, 0, 0)
        if not self.is_box_init:
            # Orphans (a daemonised grandchild) come back here, not to the machine's init: still findable.
            libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)
        signal.signal(signal.SIGINT, signal.SIG_DFL)
        self.home = fds
        if request.get("uid") is not None:
            self.run_uid = int(request["uid"])
            os.setgroups([])
            self.last_pid, self.scratch = box_init.take_over(libc, list(request["scratch"]), request["code"])
            self.sockets = box_init.SocketCount()
            self.program = request.get("program")
        # Set-user-ID programs in the box never run as their owner (also where no seccomp filter sets it).
        libc.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0)
        self.rlimits = [(int(which), int(soft), int(hard)) for which, soft, hard in request["rlimits"]]
        if self.program is None:
            self._lower_limits()
        if request.get("filter"):
            PreparedFilter(bytes.fromhex(request["filter"]), request["syscall"]).install()
        return {"ready": os.getpid(), "rss": _own_rss()}

    def run(self, request: dict, fds: list[int]) -> None:
        stdin, stdout, stderr, *join = fds
        if self.program is not None:
            self._settle_program(self.program)
        if self.unusable is not None:
            for descriptor in fds:
                os.close(descriptor)
            send(self.sock, {"unusable": self.unusable})
            return
        try:
            if self.last_pid is not None:
                os.pwrite(self.last_pid, FIRST_PID_MINUS_ONE, 0)
            spawning.join(join)
            try:
                pid = spawning.spawn(
                    request["argv"], request["cwd"], request["env"], (stdin, stdout, stderr), self.run_uid
                )
                spawned = time.monotonic()
            finally:
                for descriptor in self.home:
                    os.write(descriptor, b"0")
        except OSError as error:
            send(self.sock, {"error": f"{request['argv'][0]}: {error}"})
            return
        finally:
            for descriptor in fds:
                os.close(descriptor)
        if self.run_uid is None and not join:  # the judge follows the run by its pid (see above)
            send(self.sock, {"pid": pid})
        if self.scratch:
            # The next test's namespaces, while this one runs in its own: 0.3 ms less between two tests.
            self._mark_unusable(box_init.fresh_namespaces(self.libc))
        self._await(pid, spawned)

    def _await(self, pid: int, spawned: float) -> None:
        """Wait for the program, then answer with its status and rusage. Meanwhile only the control socket is
        read: a `drop` of this run stops it, the judge going away ends the launcher."""
        pidfd = os.pidfd_open(pid)
        try:
            while pidfd not in select.select([pidfd, self.control.fileno()], [], [])[0]:
                if not self.take_control(pid):  # the judge is gone: so is its run (a box's: --die-with-parent)
                    _kill_group(pid)
                    self._clean()
                    sys.exit(0)
            _, status, usage = os.wait4(pid, 0)
        finally:
            os.close(pidfd)
        cpu, maxrss_kib = usage.ru_utime + usage.ru_stime, usage.ru_maxrss
        if not self.is_box_init:
            # The test is over: what outlived its first process is killed now, and its rusage is the test's. A
            # box of its own is one such: bwrap returns as soon as the program ends, before its reaper (the box's
            # PID 1, which reaped the program and holds its rusage) is waited for.
            left_cpu, left_maxrss_kib = _kill_children()
            cpu, maxrss_kib = cpu + left_cpu, max(maxrss_kib, left_maxrss_kib)
        send(self.sock, {"status": status, "cpu": cpu, "maxrss": maxrss_kib * 1024, "started": spawned})
        if self.is_box_init or self.scratch:
            # After the answer: the judge checks the output meanwhile, and the next run waits for a clean box.
            # Outside a box nothing is left to clean: what outlived the program was killed and counted above.
            self._clean()

    def take_control(self, running: int | None = None) -> bool:
        """Read one message of the control socket: a `drop` of the run going on (`running`, its pid) stops it, of
        a later one marks that one dropped, of an earlier one is late and changes nothing. False: the judge is
        gone (the socket closed)."""
        message, _ = receive(self.control)
        if not message:
            return False
        seq = int(message["drop"])
        if seq > self.served:
            self.dropped.add(seq)
        elif seq == self.served and running is not None:
            self._stop(running)
        return True

    def dropped_before_start(self, seq: int) -> bool:
        """Whether the run `seq`, whose turn it is, was dropped: by a `drop` read before (`take_control`) or one
        already waiting on the control socket (read without waiting: a later one stops the run in `_await`)."""
        while select.select([self.control.fileno()], [], [], 0)[0] and self.take_control():
            pass
        self.served = seq
        if seq in self.dropped:
            self.dropped.discard(seq)
            return True
        return False

    def _stop(self, pid: int) -> None:
        """End the run the judge dropped: its session, and in a box every other process of the box (what left the
        session); outside a box the judge kills the rest of its control group once the run is answered."""
        _kill_group(pid)
        if self.is_box_init:
            try:
                os.kill(-1, signal.SIGKILL)
            except ProcessLookupError:
                pass

    def _settle_program(self, program: str) -> None:
        """Copy the compiled program into the box (box_init.settle_program): a box that cannot is unusable."""
        self.program = None
        try:
            box_init.settle_program(self.libc, program, self.scratch)
        except Exception as error:  # noqa: BLE001 -- the judge starts a fresh box on what it is told
            self.unusable = f"{program}: {error}"
        finally:
            self._lower_limits()

    def _lower_limits(self) -> None:
        """The submission's rlimits, on the launcher for every run to inherit: after the program is copied into
        the box, which the output limit (RLIMIT_FSIZE) would stop at a program larger than the output."""
        for which, soft, hard in self.rlimits:
            lower_limit(which, soft, hard)

    def _clean(self) -> None:
        """No process of this test is left for the next one (in a box, nothing else either: its namespaces were
        renewed while it ran, no socket of its is left in flight, and its writable folders are now:
        judge/runner/launcher/box_init.py).
        Nothing a test leaves can make this raise: a failure marks the box unusable, and says why."""
        try:
            self._kill_leftovers()
            failures = box_init.no_socket_left(self.sockets) if self.sockets else []
            failures += box_init.fresh_folders(self.libc, self.scratch) if self.scratch else []
        except Exception as error:  # noqa: BLE001 -- the launcher must live to say the box is unusable
            failures = [f"{type(error).__name__}: {error}"]
        self._mark_unusable(failures)

    def _mark_unusable(self, failures: list[str]) -> None:
        """Serve no other test after a reset that failed (`run` says why)."""
        if failures:
            self.unusable = "; ".join(filter(None, [self.unusable, *failures]))

    def _kill_leftovers(self) -> None:
        if self.is_box_init:
            try:
                os.kill(-1, signal.SIGKILL)
            except ProcessLookupError:
                pass
        else:
            _kill_children()
        while True:
            try:
                pid, _ = os.waitpid(-1, 0 if self.is_box_init else os.WNOHANG)
            except ChildProcessError:
                break
            if pid == 0:
                break


def close_inherited() -> None:
    """Make every descriptor the launcher was started with, but its standard streams, close-on-exec."""
    for name in os.listdir("/proc/self/fd"):
        descriptor = int(name)
        if descriptor > 2:
            try:
                os.set_inheritable(descriptor, False)
            except OSError:
                pass  # the listing's own descriptor, closed by now


def _kill_group(pid: int) -> None:
    """SIGKILL the session a run started in (its first process leads it)."""
    try:
        os.killpg(pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


def _kill_children() -> tuple[float, int]:
    """Kill what a test left behind outside a box: as a subreaper the launcher inherits every orphan of the
    test, so its children are the test's survivors (their own children come back to it when they die). Returns
    their CPU seconds and largest max RSS (KiB), which the test's own process did not reap."""
    cpu, maxrss_kib = 0.0, 0
    while children := _children():
        for pid in children:
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        for pid in children:
            try:
                _, _, usage = os.wait4(pid, 0)
            except ChildProcessError:
                continue
            cpu, maxrss_kib = cpu + usage.ru_utime + usage.ru_stime, max(maxrss_kib, usage.ru_maxrss)
    return cpu, maxrss_kib


def _children() -> list[int]:
    """The launcher's children, from /proc/self/task/*/children."""
    children: list[int] = []
    for task in os.listdir("/proc/self/task"):
        try:
            with open(f"/proc/self/task/{task}/children") as listing:
                children += [int(pid) for pid in listing.read().split()]
        except OSError:
            continue
    return children


def _own_rss() -> int:
    try:
        with open("/proc/self/statm", "rb") as handle:
            return int(handle.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except OSError:
        return 0


def serve(sock: socket.socket, control: socket.socket) -> None:
    launcher = Launcher(sock, control)
    while True:
        request, fds = receive(sock)
        if not request:
            return
        if request["do"] == "setup":
            send(sock, launcher.setup(request, fds))
        elif request["do"] == "run":
            if launcher.dropped_before_start(int(request["seq"])):
                for descriptor in fds:
                    os.close(descriptor)
                send(sock, {"dropped": True})
            else:
                launcher.run(request, fds)


def main(descriptor: int, control: int) -> None:
    """The launcher's entry point (client.py starts it with `python -I -S -c`), on its socket and control socket."""
    try:
        os.chdir("/")  # see spawning.spawn
        close_inherited()
        serve(socket.socket(fileno=descriptor), socket.socket(fileno=control))
    except (OSError, ValueError, KeyError) as failure:
        print(f"launcher: {failure}", file=sys.stderr)
        sys.exit(errno.EPROTO)
    os._exit(0)  # the judge is done with it: no interpreter teardown (a few ms the judge would wait for)
