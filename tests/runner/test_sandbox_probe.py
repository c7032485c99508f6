"""`bwrap_problem`'s probe leaves no process behind, however bwrap's monitor ends.

Real bwrap's first child (the box's PID 1) blocks on an eventfd until its monitor has set the box up; a monitor
killed in that window (a worker's cleanup killed it as a leaf just after it forked: seen here as orphans of init,
about one in two thousand rounds) left the child blocked for good. The window is microseconds wide, so these tests
put a stand-in `bwrap` first on PATH that opens it for certain: it starts a child that waits forever (as the
blocked PID 1 does), then dies or hangs.
"""

from __future__ import annotations

import os
import shutil
import textwrap
import uuid
from collections.abc import Iterator
from pathlib import Path

import psutil
import pytest

from judge.runner import bwrap_probe, sandbox


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
    monkeypatch.setattr(bwrap_probe, "PROBE_SECONDS", 0.2)
    mark = stand_in_bwrap(tmp_path, monkeypatch, then="exec sleep 3600")
    problem = sandbox.bwrap_problem()
    assert left_behind(mark) == []
    assert problem is not None and problem.startswith("bwrap failed to start: ")
    assert "timed out" in problem


# --- a yes remembered ------------------------------------------------------------------------------------------------
# The probe costs every `judge run` about 10 ms; a yes is remembered for the same bwrap, command and conditions. A
# stand-in `bwrap` counts the probes (every call but `--help`) and runs the real one, or fails while FAILING exists.

REAL_BWRAP = shutil.which("bwrap")


def counting_bwrap(folder: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, Path]:
    """A `bwrap` first on PATH that logs each probe to the returned log and fails while the returned flag exists; a
    cache folder of the test's own."""
    log, failing = folder / "probes.log", folder / "FAILING"
    script = folder / "bin" / "bwrap"
    script.parent.mkdir()
    script.write_text(
        textwrap.dedent(f"""\
        #!/bin/sh
        [ "$1" = --help ] && exec {REAL_BWRAP} "$@"
        echo probe >> {log}
        [ -e {failing} ] && {{ echo "bwrap: no namespaces today" >&2; exit 1; }}
        exec {REAL_BWRAP} "$@"
    """)
    )
    script.chmod(0o755)
    monkeypatch.setenv("PATH", f"{script.parent}{os.pathsep}{os.environ['PATH']}")
    monkeypatch.setenv("XDG_CACHE_HOME", str(folder / "cache"))
    return log, failing


def probes(log: Path) -> int:
    return len(log.read_text().splitlines()) if log.exists() else 0


def judged_again(fresh: bool = False) -> str | None:
    """bwrap_problem as the next judge process asks it (this process's own answer forgotten)."""
    sandbox.bwrap_problem.cache_clear()
    return sandbox.bwrap_problem(fresh)


needs_bwrap = pytest.mark.skipif(
    REAL_BWRAP is None or sandbox.bwrap_problem() is not None, reason="no working bwrap here"
)


@needs_bwrap
def test_a_yes_is_remembered_and_judge_doctor_asks_again(tmp_path, monkeypatch):
    log, _ = counting_bwrap(tmp_path, monkeypatch)
    assert (judged_again(), probes(log)) == (None, 1)
    assert (judged_again(), probes(log)) == (None, 1)  # the next judge takes the yes
    assert (judged_again(fresh=True), probes(log)) == (None, 2)  # judge doctor always probes
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "another-cache"))
    assert (judged_again(), probes(log)) == (None, 3)


@needs_bwrap
def test_a_no_is_never_remembered_and_a_failed_doctor_probe_forgets_the_yes(tmp_path, monkeypatch):
    log, failing = counting_bwrap(tmp_path, monkeypatch)
    assert (judged_again(), probes(log)) == (None, 1)
    failing.touch()
    assert judged_again() is None  # a yes of this boot: not probed again
    assert judged_again(fresh=True) == "bwrap cannot create namespaces here: bwrap: no namespaces today"
    assert judged_again() is not None and probes(log) == 3  # the yes is forgotten: every judge probes now
    assert judged_again() is not None and probes(log) == 4
    failing.unlink()
    assert (judged_again(), probes(log)) == (None, 5)
