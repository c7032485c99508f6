"""Waiting is not running: a run that spends its wall time ready but waiting for a CPU (here pinned to one core
with busy processes beside it) is not ended by the wall backstop while its CPU time stays under the limit.

No time is asserted: the verdicts are. The program spins until its own CPU time reaches SPIN_CPU_SECONDS, so it
needs the same CPU time however busy the core is; with HOGS beside it on one core it needs several times that in
wall time, past the wall limit given here.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from judge.runner import execute
from judge.runner.containment import waiting
from judge.runner.containment.choice import available_containments, choose_containment
from judge.runner.execute import WAITING_CEILING, LookSchedule, Tripped, charged_wall
from judge.runner.limits import Limits

HOGS = 3
SPIN_CPU_SECONDS = 0.3
LIMITS = Limits(time_seconds=0.5, wall_seconds=0.6, memory_mib=256, output_mib=1)
SPIN = f"import time\nwhile time.process_time() < {SPIN_CPU_SECONDS}:\n    pass\nprint('done')\n"
HOG = "while True:\n    pass\n"


@pytest.fixture
def one_busy_core() -> Iterator[None]:
    """This process (and so every run it starts) and HOGS busy processes share one core. Each hog leads a session
    of its own, as each run does: with the kernel's autogroups on, the scheduler shares a core between sessions
    first, and hogs in one session would take no more from a run than one hog."""
    core = min(os.sched_getaffinity(0))
    before = os.sched_getaffinity(0)
    hogs = [
        subprocess.Popen(
            [sys.executable, "-c", HOG], preexec_fn=lambda: os.sched_setaffinity(0, {core}), start_new_session=True
        )
        for _ in range(HOGS)
    ]
    os.sched_setaffinity(0, {core})
    try:
        yield
    finally:
        os.sched_setaffinity(0, before)
        for hog in hogs:
            hog.kill()
            hog.wait()


def spin(tmp_path: Path, containment: str) -> execute.RunStats:
    stdin = tmp_path / "empty.in"
    stdin.touch()
    spec = execute.RunSpec(
        argv=[sys.executable, "-S", "-c", SPIN], cwd=tmp_path, stdin_path=stdin, stdout_path=tmp_path / "out",
        stderr_path=tmp_path / "err", env={"PATH": "/usr/bin:/bin"}, limit_address_space=False,
    )
    return execute.run(spec, LIMITS, choose_containment(containment))


@pytest.mark.parametrize("containment", ["cgroup", "proc"])
def test_a_run_waiting_for_a_cpu_is_not_ended_by_the_wall_backstop(tmp_path, containment, one_busy_core):
    if containment not in available_containments():
        pytest.skip(f"no {containment} containment here")
    stats = spin(tmp_path, containment)
    assert (stats.tripped, stats.exit_code) == (None, 0), stats
    assert (tmp_path / "out").read_text() == "done\n"


def test_the_waiting_of_a_busy_tree_is_measured(one_busy_core):
    """The measurement itself: this process's own threads have waited for the core the hogs share."""
    before = waiting.tree_run_delay_seconds([os.getpid()])
    assert before is not None
    while (waiting.tree_run_delay_seconds([os.getpid()]) or 0.0) <= before:
        sum(range(10_000))


def test_waiting_is_taken_off_the_wall_time_but_never_past_the_ceiling():
    limits = Limits(1.0, 3.0, 256, 64)
    assert charged_wall(5.0, 2.5, limits) == 2.5
    assert charged_wall(5.0, None, limits) == 5.0  # unknown: all of it counts
    assert charged_wall(5.0, 9.0, limits) == 0.0  # never below nothing
    beyond = WAITING_CEILING * limits.wall_seconds + 0.1
    assert charged_wall(beyond, beyond, limits) == beyond


def test_the_next_look_waits_for_the_time_spent_waiting():
    schedule = LookSchedule(Limits(1.0, 3.0, 256, 64), cpus=None, memory_polled=False)
    # Past the wall limit on the clock, but 1 s of it was waiting: the next look is not due at once.
    assert schedule.wait(10, 1.0, 3.2, 0.0, 3.2, waited=1.0) > schedule.wait(10, 1.0, 3.2, 0.0, 3.2)


def test_a_wall_limit_still_ends_a_sleeper_with_the_waiting_read(tmp_path):
    """A sleeper does not wait for a CPU: the wall limit ends it as before, and the waiting was read."""
    stdin = tmp_path / "empty.in"
    stdin.touch()
    spec = execute.RunSpec(
        argv=[sys.executable, "-S", "-c", "import time\ntime.sleep(60)\n"], cwd=tmp_path, stdin_path=stdin,
        stdout_path=tmp_path / "out", stderr_path=tmp_path / "err", env={}, limit_address_space=False,
    )
    stats = execute.run(spec, Limits(0.2, 0.5, 256, 1), choose_containment(available_containments()[0]))
    assert stats.tripped is Tripped.WALL
    assert stats.waiting_seconds is not None
