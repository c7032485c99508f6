"""`bwrap_problem`'s probe leaves no process behind, however bwrap's monitor ends.

Real bwrap's first child (the box's PID 1) blocks on an eventfd until its monitor has set the box up; a monitor
killed in that window (a worker's cleanup killed it as a leaf just after it forked: seen here as orphans of init,
about one in two thousand rounds) left the child blocked for good. The window is microseconds wide, so these tests
put a stand-in `bwrap` first on PATH that opens it for certain: it starts a child that waits forever (as the
blocked PID 1 does), then dies or hangs.
"""

from __future__ import annotations

import os
import textwrap
import uuid
from collections.abc import Iterator
from pathlib import Path

import psutil
import pytest

from judge.runner import sandbox


@pytest.fixture(autouse=True)
def fresh_probe() -> Iterator[None]:
    """The probe's answer is cached per process: neither take another test's, nor leave the stand-in's."""
    sandbox.bwrap_problem.cache_clear()
    yield
    sandbox.bwrap_problem.cache_clear()


def stand_in_bwrap(folder: Path, monkeypatch: pytest.MonkeyPatch, then: str) -> str:
    """A `bwrap` that starts a child sleeping for a unique number of seconds (its mark), then runs `then`."""
    mark = f"{uuid.uuid4().int % 10**6 + 10**6}.5"
    script = folder / "bwrap"
    script.write_text(
        textwrap.dedent(f"""\
        #!/bin/sh
        [ "$1" = --help ] && exit 0
        sleep {mark} &
        {then}
    """)
    )
    script.chmod(0o755)
    monkeypatch.setenv("PATH", f"{folder}{os.pathsep}{os.environ['PATH']}")
    return mark


def left_behind(mark: str) -> list[psutil.Process]:
    """The stand-in's children still alive after a while (a SIGKILLed child needs a moment to be reaped)."""
    marked = [process for process in psutil.process_iter(["cmdline"]) if process.info["cmdline"] == ["sleep", mark]]
    _, alive = psutil.wait_procs(marked, timeout=5)
    for process in alive:  # the test fails; the machine keeps nothing of it
        process.kill()
    return alive


def test_a_monitor_killed_mid_setup_takes_its_child_along(tmp_path, monkeypatch):
    mark = stand_in_bwrap(tmp_path, monkeypatch, then="kill -KILL $$")
    problem = sandbox.bwrap_problem()
    assert left_behind(mark) == []
    assert problem == "bwrap cannot create namespaces here: -9"


def test_a_probe_that_hangs_is_ended_whole_at_its_timeout(tmp_path, monkeypatch):
    monkeypatch.setattr(sandbox, "PROBE_SECONDS", 0.2)
    mark = stand_in_bwrap(tmp_path, monkeypatch, then="exec sleep 3600")
    problem = sandbox.bwrap_problem()
    assert left_behind(mark) == []
    assert problem is not None and problem.startswith("bwrap failed to start: ")
    assert "timed out" in problem
