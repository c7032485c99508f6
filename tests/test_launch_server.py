"""The launcher's life around a submission (judge/launcher.py): its answer is awaited by the first run, so that it
starts while the program compiles; one that cannot start fails every run at once; one never used is not waited for."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

from judge.containment import Contained, Guards
from judge.errors import JudgeFailure
from judge.launcher import Files, LaunchServer, RunLimits, launcher_command

pytestmark = pytest.mark.skipif(not hasattr(os, "pidfd_open"), reason="the launcher needs pidfds (Linux)")

LIMITS = RunLimits(cpu_backstop_seconds=5, output_bytes=1 << 20, memory_bytes=256 << 20,
                   limit_address_space=False, max_tasks=None)
CONTAINED = Contained((), Guards(limit_address_space=False, max_tasks=None), "token")
REPOSITORY = Path(__file__).resolve().parent.parent


def echo(server: LaunchServer, tmp_path: Path) -> int:
    """Run `echo hello` into tmp_path/out through `server`; its wait status."""
    with open(os.devnull, "rb") as stdin, open(tmp_path / "out", "wb") as out:
        started = server.start(["/bin/echo", "hello"], tmp_path, {"PATH": "/usr/bin:/bin"},
                               Files(stdin.fileno(), out.fileno(), out.fileno()), CONTAINED, LIMITS)
    exited = started.wait(10)
    assert exited is not None, "echo did not end within 10 s"
    return exited.status


def test_a_launcher_that_cannot_start_fails_every_run_with_its_words(tmp_path: Path) -> None:
    broken = ["/bin/sh", "-c", "echo 'no python here' >&2; exit 3"]
    with LaunchServer(broken, tmp_path, LIMITS, None, ()) as server:
        for _ in range(2):  # the second at once, with the same message: not another wait for an answer
            with pytest.raises(JudgeFailure, match="the launcher could not start: no python here"):
                echo(server, tmp_path)


def test_a_launcher_starts_runs_after_its_answer(tmp_path: Path) -> None:
    with LaunchServer(launcher_command(sys.executable, REPOSITORY), tmp_path, LIMITS, None, ()) as server:
        assert echo(server, tmp_path) == 0
        assert server.starter_rss > 0
    assert (tmp_path / "out").read_text() == "hello\n"


def test_a_launcher_never_used_is_killed_not_awaited(tmp_path: Path) -> None:
    """After a CE no test runs: the launcher, perhaps still starting, is killed and reaped at once."""
    sleeper = ["/bin/sh", "-c", "sleep 60"]
    server = LaunchServer(sleeper, tmp_path, LIMITS, None, ())
    pid = server._process.pid
    server.close()
    assert server._process.returncode is not None
    with pytest.raises(ProcessLookupError):
        os.kill(pid, 0)
