"""Starting a run's first process, already in the run's control group and under its limits: the `Starter`
protocol and its records, and the simplest starter, a fork of the judge (`Spawner`: a single run, a compile, a
validator). The other starter, a launcher process kept for every test of a submission, is judge/runner/launcher/
(`Launcher`); judge/runner/starter_choice.py picks one of the two for a submission's tests.
"""

from __future__ import annotations

import os
import resource
import select
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Protocol

from msgspec import Struct

from judge.errors import JudgeFailure
from judge.runner.containment.protocol import Contained
from judge.runner.launcher.own_limits import limit_within
from judge.runner.limits import MIB
from judge.runner.syscall_filter import LoadableFilter

FALLBACK_STACK_BYTES = 8 * MIB
EXIT_REPORT_SECONDS = 10.0  # how long a run may take to be reported ended once it is killed


class Exited(Struct, frozen=True):
    """How a run's first process ended: its wait status and rusage."""

    status: int
    cpu_seconds: float
    maxrss_bytes: int
    started_at: float | None = None
    """When (time.monotonic) the starter started it, where it knows better than the judge (a launcher that first
    emptied the box after the test before); None: when `Starter.start` returned."""


class Files(Struct, frozen=True):
    """A run's standard streams, open in the judge."""

    stdin: int
    stdout: int
    stderr: int


class RunLimits(Struct, frozen=True):
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
    """A started run: its pid as the judge sees it (None where the judge is not told it: inside a box's PID
    namespace, or started by a launcher into a control group, which holds the run), and how it ended."""

    @property
    def pid(self) -> int | None: ...

    @property
    def queued_until(self) -> float | None:
        """Where it was sent behind runs not ended yet (`Starter.queues`), when (time.monotonic) the last of them
        was seen to end: it started no sooner. None: it started at once, or they are still going."""

    def wait(self, timeout: float) -> Exited | None:
        """How it ended, or None if it is still running after `timeout` seconds."""

    def cancel(self) -> None:
        """Stop it and wait for its end, whatever it is: its judging stopped (it was sent ahead)."""


class Starter(Protocol):
    """Starts a run's first process, already in the run's control group and under its limits."""

    @property
    def starter_rss(self) -> int:
        """RSS of the process a run is a copy of before exec (ru_maxrss counts it: containment/polled.py's
        _polled_peak)."""

    @property
    def in_box(self) -> bool:
        """True when runs start inside an existing box: their argv is the bare command, their cwd and env the
        box's."""

    def start(
        self, argv: list[str], cwd: Path, env: dict[str, str], files: Files, contained: Contained, limits: RunLimits
    ) -> Started:
        """Start the run; `files` stay open until it has ended (a warm box may start it again in a fresh box)."""

    def queues(self, contained: Contained) -> bool:
        """Whether a start in `contained` only queues the run behind those started before and not ended yet, one
        at a time (a launcher), so the next test's run may be started while this one goes on; False where a start
        starts at once (a fork of the judge: two runs would then compete for the CPUs)."""


def child_setup(contained: Contained, limits: RunLimits, syscall_filter: LoadableFilter | None):
    """The function run in a fork of the judge between fork and exec: join the run's group, set the rlimits
    (with a per-process CPU backstop), put back at its default every signal the judge ignores (`ignored_signals`),
    load the seccomp filter last (it sets no_new_privs).

    Everything is decided here, in the judge, and the child only makes the system calls: each Python object the
    child makes or touches copies a page of the judge's memory, on the way of every compile step (opening four
    cgroup v1 `tasks` files as text files took seven system calls each)."""
    rlimits = [
        (which, limit_within(which, soft, hard))
        for which, soft, hard in [
            (resource.RLIMIT_CPU, limits.cpu_backstop_seconds, limits.cpu_backstop_seconds + 1),
            *limits.rlimits(),
        ]
    ]
    join_files = [os.fsencode(path) for path in contained.join_files]
    install_filter = syscall_filter.prepared().install if syscall_filter is not None else None
    ignored, default = ignored_signals(), signal.SIG_DFL
    write, open_file, close, setrlimit, set_handler = os.write, os.open, os.close, resource.setrlimit, signal.signal

    def setup() -> None:
        for path in join_files:
            descriptor = open_file(path, os.O_WRONLY | os.O_CLOEXEC)
            write(descriptor, b"0")
            close(descriptor)
        for which, soft_and_hard in rlimits:
            setrlimit(which, soft_and_hard)
        for number in ignored:
            set_handler(number, default)
        if install_filter is not None:
            install_filter()

    return setup


def ignored_signals() -> list[int]:
    """The signals the judge ignores that an exec would leave ignored in the program (SIGHUP under nohup, SIGINT
    and SIGQUIT in a shell's background job), but SIGPIPE and SIGXFSZ, which `Popen` puts back itself: every run
    starts with every signal at its default, as the launcher starts every test's (launcher/spawning.py)."""
    return [
        number
        for number in signal.valid_signals()
        if number not in (signal.SIGPIPE, signal.SIGXFSZ) and signal.getsignal(number) == signal.SIG_IGN
    ]


def start_process(argv: list[str], **popen: object) -> subprocess.Popen[bytes]:
    """`Popen` in a session of its own. The setup between fork and exec failing is the judge's failure: a
    `JudgeFailure` naming the program, not a bare `SubprocessError`."""
    try:
        return subprocess.Popen(argv, start_new_session=True, **popen)  # type: ignore[call-overload]
    except subprocess.SubprocessError as error:
        raise JudgeFailure(f"the judge could not start {argv[0]}: {error}") from None


class _Child(Struct):
    """A child of the judge, waited for through a pidfd and reaped with its rusage by `wait4`.

    The `Popen` is kept, and told the exit status once reaped: a `Popen` dropped while its child runs joins
    subprocess's list of children to reap, and the next `Popen` anywhere in the judge (another thread's) would
    reap this child before `wait4` could, or later a new child that got its pid.
    """

    process: subprocess.Popen[bytes]
    queued_until: float | None = None  # never queued: started at once

    @property
    def pid(self) -> int:
        return self.process.pid

    def cancel(self) -> None:
        try:
            os.killpg(self.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
        if self.wait(EXIT_REPORT_SECONDS) is None:
            raise JudgeFailure(f"a run did not end {EXIT_REPORT_SECONDS:.0f} s after it was killed")

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


class Spawner(Struct, frozen=True):
    """Each run a fork of the judge (a compile, a validator, a checker: one run, not worth a launcher)."""

    syscall_filter: LoadableFilter | None
    in_box: bool = False

    @property
    def starter_rss(self) -> int:
        return _own_rss() if sys.platform.startswith("linux") else 0

    def queues(self, contained: Contained) -> bool:
        return False

    def start(
        self, argv: list[str], cwd: Path, env: dict[str, str], files: Files, contained: Contained, limits: RunLimits
    ) -> Started:
        process = start_process(
            argv,
            stdin=files.stdin,
            stdout=files.stdout,
            stderr=files.stderr,
            cwd=cwd,
            env=env,
            preexec_fn=child_setup(contained, limits, self.syscall_filter),
        )
        return _Child(process)


def _maxrss_bytes(maxrss: int) -> int:
    return maxrss if sys.platform == "darwin" else maxrss * 1024  # Linux counts KiB, macOS bytes


def _own_rss() -> int:
    """The judge's resident memory (what each fork of it starts with), from /proc/self/statm."""
    with open("/proc/self/statm", "rb") as handle:
        return int(handle.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
