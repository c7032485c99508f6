"""How a submission's tests are started: through one launcher for the whole submission where this machine
allows it, else by forking the judge for each test.

Without a sandbox the launcher runs as the judge's user. With bubblewrap it is the PID 1 of one warm box (as the
box's root, each run dropped to the box's unprivileged uid): every test of the submission starts inside it, in
its own control group, and between two tests the launcher kills every other process of the box and gives it
fresh writable folders and a fresh IPC namespace (a box it could not reset is replaced by a fresh one); the
box is torn down with the submission, so nothing of one student's run reaches another's.
Following a run inside the box's PID namespace needs a control group, and dropping each run to another uid needs
a judge that is root, so without either each test gets a fresh box of its own, as before.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path

from judge import forkserver
from judge.containment import Containment
from judge.errors import ToolchainMissing
from judge.languages import LANGUAGES, resolve_toolchain
from judge.launcher import LaunchServer, RunLimits, Spawner, Starter, WarmBox, launcher_command
from judge.sandbox import LAUNCHER_CODE, PROGRAM, Mounts, Sandbox, ToolchainView

LAUNCHER_LANGUAGE = "python3"
SYSTEM_PYTHON = "/usr/bin/python3"


@contextmanager
def test_starter(sandbox: Sandbox, containment: Containment, mounts: Mounts, limits: RunLimits) -> Iterator[Starter]:
    """The starter for every test of one submission, torn down (with its box) when the block ends."""
    in_box = bool(sandbox.scratch)
    # The launcher waits through pidfds and reaps orphans as a subreaper: Linux only.
    usable = hasattr(os, "pidfd_open") and (not in_box or shares_one_box(sandbox, containment))
    launcher = _launcher(sandbox, mounts) if usable else None
    if launcher is None:
        yield Spawner(sandbox.syscall_filter)
        return
    command, box_mounts = launcher
    home = containment.home()
    try:
        argv = sandbox.wrap(command, box_mounts, as_init=True) if in_box else command
        join = home.contained.join_files if home is not None else ()
        box = WarmBox(sandbox.scratch, str(PROGRAM), sandbox.warm_box_uid) \
            if in_box and sandbox.warm_box_uid is not None else None
        with LaunchServer(argv, mounts.program_dir, limits, sandbox.syscall_filter, join, box) as server:
            yield server
    finally:
        if home is not None:
            home.close()


def shares_one_box(sandbox: Sandbox, containment: Containment) -> bool:
    """Whether the tests of a submission share one warm box: it needs a control group to follow each run in
    the box's PID namespace, and a launcher that is root in the box to drop each run to its uid."""
    return bool(sandbox.scratch) and sandbox.warm_box_uid is not None and containment.uses_groups


def _launcher(sandbox: Sandbox, mounts: Mounts) -> tuple[list[str], Mounts] | None:
    """The launcher's command and what its box must show: the submission's mounts, plus an interpreter (the
    system's, under /usr, which every box shows anyway, else the Python 3 toolchain) and the judge's own package
    at LAUNCHER_CODE (read-only; never a host path). None when no Python can be shown in a box. Unconfined, the
    system's Python too where there is one: a distribution's build starts faster than a pyenv one (about 35
    against 47 ms here to a launcher ready), and the launcher needs nothing but the standard library."""
    if not sandbox.scratch:
        python = SYSTEM_PYTHON if Path(SYSTEM_PYTHON).is_file() else sys.executable
        return launcher_command(python, Path(forkserver.__file__).parent.parent), mounts
    box_mounts = replace(mounts, launcher_code=Path(forkserver.__file__).parent)
    if Path(SYSTEM_PYTHON).is_file():
        return launcher_command(SYSTEM_PYTHON, LAUNCHER_CODE.parent), box_mounts
    try:
        python = resolve_toolchain(LANGUAGES[LAUNCHER_LANGUAGE])
    except ToolchainMissing:
        return None
    view = ToolchainView(shown=(*mounts.toolchain.shown, *python.view.shown),
                         hidden=(*mounts.toolchain.hidden, *python.view.hidden))
    return launcher_command(python.paths["python"], LAUNCHER_CODE.parent), replace(box_mounts, toolchain=view)
