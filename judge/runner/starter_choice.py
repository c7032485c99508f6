"""How a submission's tests are started: through one launcher for the whole submission where this machine
allows it (Linux), else by forking the judge for each test.

Without a sandbox the launcher runs as the judge's user. With bubblewrap it is the PID 1 of one warm box (as the
box's root, each run dropped to the box's unprivileged uid): every test of the submission starts inside it, in
its own control group, and between two tests the launcher kills every other process of the box and gives it
fresh writable folders and a fresh IPC namespace (a box it could not reset is replaced by a fresh one); the
box is torn down with the submission, so nothing of one student's run reaches another's.
Following a run inside the box's PID namespace needs a control group, and dropping each run to another uid needs
a judge that is root, so without either each test gets a fresh box of its own, started by a launcher outside any
box. Not by the judge: bwrap returns as soon as the program ends, before the box's own PID 1 (bwrap's reaper, which
reaped the program and holds its rusage) has ended, and only a subreaper above it, as the launcher is, gets that
rusage back (the program's last milliseconds of CPU time, which no look at the tree saw, were lost).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from msgspec import Struct
from msgspec.structs import replace

from judge.runner.containment.protocol import Containment
from judge.runner.launcher.client import JUDGE_PACKAGE, Launcher, WarmBox, launcher_command
from judge.runner.sandbox import LAUNCHER_CODE, PROGRAM, Mounts, Sandbox, ToolchainView
from judge.runner.start import RunLimits, Spawner, Starter

SYSTEM_PYTHON = "/usr/bin/python3"


class BoxPython(Struct, frozen=True):
    """A Python interpreter a box can run the launcher with: its path and what the box must show of it."""

    interpreter: str
    view: ToolchainView


@contextmanager
def test_starter(
    sandbox: Sandbox,
    containment: Containment,
    mounts: Mounts,
    limits: RunLimits,
    box_python: Callable[[], BoxPython | None],
) -> Iterator[Starter]:
    """The starter for every test of one submission, torn down (with its box) when the block ends. `box_python`
    is asked only on a machine without a system Python, for another interpreter to run a warm box's launcher
    (None: there is none, and each test gets a box of its own)."""
    if not hasattr(os, "pidfd_open"):  # the launcher waits through pidfds and reaps as a subreaper: Linux only
        yield Spawner(sandbox.syscall_filter)
        return
    warm_box = _warm_box_launcher(sandbox, mounts, box_python) if shares_one_box(sandbox, containment) else None
    command, box_mounts = warm_box or (_host_launcher(), mounts)
    warm = warm_box is not None
    home = containment.home()
    try:
        argv = sandbox.wrap(command, box_mounts, as_init=True) if warm else command
        join = home.contained.join_files if home is not None else ()
        box = (
            WarmBox(sandbox.scratch, str(PROGRAM), str(LAUNCHER_CODE), sandbox.warm_box_uid)
            if warm and sandbox.warm_box_uid is not None
            else None
        )
        with Launcher(argv, mounts.program_dir, limits, sandbox.syscall_filter, join, box) as started:
            yield started
    finally:
        if home is not None:
            home.close()


def shares_one_box(sandbox: Sandbox, containment: Containment) -> bool:
    """Whether the tests of a submission share one warm box: it needs a control group to follow each run in
    the box's PID namespace, and a launcher that is root in the box to drop each run to its uid."""
    return bool(sandbox.scratch) and sandbox.warm_box_uid is not None and containment.uses_groups


def _host_launcher() -> list[str]:
    """The command of a launcher outside any box: with the system's Python where there is one, since a
    distribution's build starts faster than a pyenv one (about 35 against 47 ms here to a launcher ready), and the
    launcher needs nothing but the standard library."""
    host_python = SYSTEM_PYTHON if Path(SYSTEM_PYTHON).is_file() else sys.executable
    return launcher_command(host_python, JUDGE_PACKAGE.parent)


def _warm_box_launcher(
    sandbox: Sandbox, mounts: Mounts, box_python: Callable[[], BoxPython | None]
) -> tuple[list[str], Mounts] | None:
    """The command of a warm box's launcher and what its box must show: the submission's mounts, plus an
    interpreter (the system's, under /usr, which every box shows anyway, else `box_python`'s) and the judge's own
    package at LAUNCHER_CODE (read-only; never a host path). None when no Python can be shown in a box."""
    box_mounts = replace(mounts, launcher_code=JUDGE_PACKAGE)
    if Path(SYSTEM_PYTHON).is_file():
        return launcher_command(SYSTEM_PYTHON, LAUNCHER_CODE.parent), box_mounts
    python = box_python()
    if python is None:
        return None
    view = ToolchainView(
        shown=(*mounts.toolchain.shown, *python.view.shown), hidden=(*mounts.toolchain.hidden, *python.view.hidden)
    )
    return launcher_command(python.interpreter, LAUNCHER_CODE.parent), replace(box_mounts, toolchain=view)
