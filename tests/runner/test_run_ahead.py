"""A run begun while another goes on (judge/runner/execute.py's `begin`, through a launcher that queues it:
judge/runner/launcher/): it wakes no one, starts only once the one before has ended, and when it is not wanted
after all (dropped) it is stopped, started or not, and the launcher goes on serving."""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import psutil
import pytest

from judge.runner import execute
from judge.runner.containment.choice import available_containments, choose_containment
from judge.runner.containment.protocol import Containment
from judge.runner.launcher import messages
from judge.runner.launcher.client import Launcher, launcher_command
from judge.runner.limits import Limits
from judge.runner.run_files import KeptOutputs
from judge.runner.start import RunLimits

pytestmark = pytest.mark.skipif(
    not hasattr(os, "pidfd_open") or "cgroup" not in available_containments(),
    reason="a launcher queues runs only into a control group (Linux, pidfds)",
)

REPOSITORY = Path(__file__).resolve().parents[2]
LIMITS = Limits(time_seconds=5, wall_seconds=40, memory_mib=256, output_mib=1)
RLIMITS = RunLimits(cpu_backstop_seconds=7, output_bytes=1 << 20, memory_bytes=256 << 20,
                    limit_address_space=False, max_tasks=None)


@pytest.fixture
def queued(tmp_path: Path) -> Iterator[tuple[Launcher, Containment, KeptOutputs]]:
    """A launcher outside any box, its runs in control groups (so it queues them), and the output files kept."""
    fresh = choose_containment("cgroup")
    home = fresh.home()
    assert home is not None
    try:
        with fresh.for_runs(LIMITS.memory_mib, LIMITS.max_processes) as containment, \
                Launcher(launcher_command(sys.executable, REPOSITORY), tmp_path, RLIMITS, None,
                         home.contained.join_files) as launcher, KeptOutputs() as kept:
            yield launcher, containment, kept
    finally:
        home.close()


def begin(tmp_path: Path, name: str, code: str, queued: tuple[Launcher, Containment, KeptOutputs]
          ) -> execute.PendingRun:
    launcher, containment, kept = queued
    stdin = tmp_path / "empty.in"
    stdin.touch()
    spec = execute.RunSpec(argv=[sys.executable, "-I", "-S", "-c", code], cwd=tmp_path, stdin_path=stdin,
                           stdout_path=tmp_path / f"{name}.out", stderr_path=tmp_path / f"{name}.err",
                           env={"PATH": "/usr/bin:/bin"}, limit_address_space=False)
    return execute.begin(spec, LIMITS, containment, launcher, kept)


STAMP = "import time; print(time.time()); time.sleep({seconds}); print(time.time())"


def stamps(path: Path) -> list[float]:
    return [float(line) for line in path.read_text().split()]


def test_a_run_begun_behind_another_starts_after_it_and_wakes_no_one(
        tmp_path: Path, queued: tuple[Launcher, Containment, KeptOutputs]) -> None:
    """Sent while the first run goes on, the second wakes nobody (the launcher does not read requests then), and
    starts only once the first has ended, which the judge is told (the earliest its wall time may count from)."""
    launcher = queued[0]
    first = begin(tmp_path, "first", STAMP.format(seconds=0.5), queued)
    time.sleep(0.2)  # the launcher asleep, waiting for the first run's end
    asleep = voluntary_switches(launcher_pid(launcher))
    second = begin(tmp_path, "second", STAMP.format(seconds=0), queued)
    time.sleep(0.1)  # time for a wake-up, were there one
    assert voluntary_switches(launcher_pid(launcher)) == asleep
    first_stats = first.finish()
    first_answered = second.child.queued_until
    assert first_answered is not None
    second_stats = second.finish()
    assert (first_stats.exit_code, second_stats.exit_code) == (0, 0), (first_stats, second_stats)
    first_started, first_ended = stamps(tmp_path / "first.out")
    second_started, _ = stamps(tmp_path / "second.out")
    assert first_started < first_ended <= second_started  # one at a time: never beside the run before it


def test_a_run_dropped_before_its_turn_never_runs(
        tmp_path: Path, queued: tuple[Launcher, Containment, KeptOutputs]) -> None:
    """A drop that comes while the run before goes on marks the dropped run, which is answered `dropped` when its
    turn comes, never started; the drop the judge sends when it gives the run up is then late, and harmless."""
    launcher = queued[0]
    marker = tmp_path / "ran"
    first = begin(tmp_path, "first", STAMP.format(seconds=0.3), queued)
    dropped = begin(tmp_path, "dropped", f"open({str(marker)!r}, 'w')", queued)
    messages.send(launcher._control, {"drop": dropped.child.seq})  # type: ignore[attr-defined]
    assert first.finish().exit_code == 0
    process = launcher._process
    dropped.cancel()
    assert launcher._process is process
    after = begin(tmp_path, "after", STAMP.format(seconds=0), queued)
    assert after.finish().exit_code == 0
    assert not marker.exists()


def test_a_run_dropped_while_it_runs_is_killed_and_the_launcher_goes_on(
        tmp_path: Path, queued: tuple[Launcher, Containment, KeptOutputs]) -> None:
    """Dropped once it runs: the launcher kills it and answers at once, so it is not replaced (a launcher that
    does not answer a drop would be, after 10 s)."""
    launcher = queued[0]
    started = tmp_path / "started"
    first = begin(tmp_path, "first", STAMP.format(seconds=0), queued)
    sleeper = begin(tmp_path, "sleeper", f"open({str(started)!r}, 'w').close(); import time; time.sleep(30)", queued)
    assert first.finish().exit_code == 0
    deadline = time.monotonic() + 10
    while not started.exists() and time.monotonic() < deadline:
        time.sleep(0.01)
    assert started.exists(), "the run sent after the first did not start"
    process = launcher._process
    sleeper.cancel()
    assert launcher._process is process
    assert not sleeping("time.sleep(30)")
    again = begin(tmp_path, "again", STAMP.format(seconds=0), queued)
    assert again.finish().exit_code == 0


def sleeping(code: str) -> list[psutil.Process]:
    """The processes whose command line has `code` in it."""
    return [found for found in psutil.process_iter(["cmdline"])
            if any(code in part for part in found.info["cmdline"] or ())]


def launcher_pid(launcher: Launcher) -> int:
    return launcher._process.pid


def voluntary_switches(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("voluntary_ctxt_switches:"):
            return int(line.split()[1])
    raise AssertionError(f"/proc/{pid}/status has no voluntary_ctxt_switches")
