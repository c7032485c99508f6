"""The watch loop looks at a run no sooner than a limit could be reached, and still sees every limit at once.

The schedule is tested as arithmetic (no clock); real busy and sleeping programs then show that each limit trips,
the right one, and never before the counters reach it. How soon after the limit the kill comes is a figure of the
machine's load, not a property: `benchmarks/timing_stability.py --parts watch` measures it against its target. Limits
scale with JUDGE_TEST_TIME_SCALE on a slow machine.
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from conftest import TEST_TIME_SCALE
from judge.runner import execute
from judge.runner.containment.choice import available_containments, choose_containment
from judge.runner.execute import LONGEST_WAIT_SECONDS, SHORTEST_WAIT_SECONDS, LookSchedule, Tripped
from judge.runner.limits import Limits

BUSY = "while True:\n    pass\n"
SLEEPER = "import time\ntime.sleep(60)\n"
SLEEP_THEN_SPIN = "import time\ntime.sleep(0.3)\nwhile True:\n    pass\n"
TWO_SPINNERS = "import os\nos.fork()\nwhile True:\n    pass\n"


def old_wait(look: int) -> float:
    """The doubling wait the loop had before: 5, 10, 20, 40, then every 50 ms."""
    return min(SHORTEST_WAIT_SECONDS * 2**look, LONGEST_WAIT_SECONDS)


def simulate(schedule: LookSchedule, rate: float, end: float = 60.0) -> tuple[float, float]:
    """A tree using `rate` CPU seconds per second from time 0, looked at as `schedule` says: (CPU seconds,
    wall seconds) at the look that trips a limit."""
    limits = schedule.limits
    now, cpu_seen, sampled_at, look = 0.0, 0.0, 0.0, 0
    while now < end:
        now += schedule.wait(look, cpu_seen, sampled_at, 0.0, now)
        sampled_at, cpu_seen, look = now, rate * now, look + 1
        if cpu_seen > limits.time_seconds or now > limits.wall_seconds:
            return cpu_seen, now
    raise AssertionError("no limit tripped")


def simulate_old(limits: Limits, rate: float) -> tuple[float, float]:
    """The same tree looked at on the doubling wait."""
    now, look = 0.0, 0
    while True:
        now += old_wait(look)
        look += 1
        if rate * now > limits.time_seconds or now > limits.wall_seconds:
            return rate * now, now


def test_a_short_program_is_not_looked_at():
    """A program alive 20 ms (Python's echo) under a 1 s limit: the first look is the longest wait away."""
    schedule = LookSchedule(Limits(1.0, 3.0, 256, 64), cpus=2, memory_polled=False)
    assert schedule.wait(0, 0.0, 100.0, 100.0, 100.0) == LONGEST_WAIT_SECONDS


@pytest.mark.parametrize("cpus", [1, 2, 8])
@pytest.mark.parametrize("time_limit", [0.02, 0.1, 0.5, 1.0, 3.0])
@pytest.mark.parametrize("polled", [False, True])
def test_each_limit_is_seen_within_one_shortest_wait(cpus, time_limit, polled):
    """For a tree using 1 CPU, all CPUs, or sleeping, each limit is seen at most one shortest wait (5 ms) after
    it is reached, never before; the doubling wait saw it up to a longest wait (50 ms) late."""
    limits = Limits(time_limit, 2 * time_limit + 1, 256, 64)
    schedule = LookSchedule(limits, cpus, polled)
    for rate in (1.0, float(cpus), 0.0):
        reached = min(time_limit / rate if rate else float("inf"), limits.wall_seconds)
        _, wall = simulate(schedule, rate)
        assert reached <= wall <= reached + SHORTEST_WAIT_SECONDS + 1e-9, (rate, wall, reached)
        _, old_wall = simulate_old(limits, rate)
        assert reached <= old_wall <= reached + LONGEST_WAIT_SECONDS + 1e-9, (rate, old_wall, reached)


@pytest.mark.parametrize("look", range(8))
def test_polled_memory_keeps_the_doubling_wait_at_most(look):
    """Memory only polling sees can grow at any moment: never a later look than before, with an unknown CPU
    count too."""
    limits = Limits(10.0, 21.0, 256, 64)
    for schedule in (LookSchedule(limits, 2, memory_polled=True), LookSchedule(limits, None, memory_polled=False)):
        assert SHORTEST_WAIT_SECONDS <= schedule.wait(look, 0.0, 0.0, 0.0, 0.0) <= old_wait(look)


def test_a_run_near_its_limit_is_not_looked_at_in_a_spin():
    schedule = LookSchedule(Limits(1.0, 3.0, 256, 64), cpus=2, memory_polled=False)
    assert schedule.wait(5, 0.9999, 1.0, 0.0, 1.0) == SHORTEST_WAIT_SECONDS
    assert schedule.wait(5, 0.0, 2.999, 0.0, 2.999) == SHORTEST_WAIT_SECONDS


@pytest.fixture(params=["cgroup", "proc"])
def containment(request: pytest.FixtureRequest) -> str:
    if request.param not in available_containments():
        pytest.skip(f"no {request.param} containment here")
    return request.param


def run(tmp_path: Path, source: str, containment: str, limits: Limits) -> tuple[execute.RunStats, float]:
    """Run `source` with this interpreter under `limits`; also when the run began (before its start)."""
    program = tmp_path / "main.py"
    program.write_text(source)
    stdin = tmp_path / "empty.in"
    stdin.touch()
    spec = execute.RunSpec(argv=["/usr/bin/python3", "-S", str(program)], cwd=tmp_path, stdin_path=stdin,
                           stdout_path=tmp_path / "out", stderr_path=tmp_path / "err",
                           env={"PATH": "/usr/bin:/bin"}, limit_address_space=False)
    begun = time.monotonic()
    return execute.run(spec, limits, choose_containment(containment)), begun


@pytest.mark.parametrize("source", [BUSY, SLEEP_THEN_SPIN, TWO_SPINNERS], ids=["busy", "sleep-then-spin", "two"])
def test_cpu_limit_trips_once_reached(tmp_path, containment, source):
    """Busy from the start, after a sleep, or in two processes: the CPU limit stops the tree, never before the
    containment counted its CPU time past the limit, and the wall limit (ten times longer) is not what stopped it."""
    limit = 1.0 * TEST_TIME_SCALE
    stats, _ = run(tmp_path, source, containment, Limits(limit, 10 * limit, 256, 1))
    assert stats.tripped is Tripped.CPU, stats
    assert stats.cpu_seconds >= limit, stats


@pytest.mark.parametrize("source", [BUSY, SLEEPER], ids=["busy", "sleeper"])
def test_wall_limit_trips_once_reached(tmp_path, containment, source):
    """Busy or asleep under a CPU limit ten times the wall limit: the wall limit stops it, with the time the run
    waited for a CPU read (the backstop leaves it out), and never before the limit. An order, not a precision: the
    loop trips only once the wall time it counts is past the limit, and no load can make that earlier."""
    wall = 1.0 * TEST_TIME_SCALE
    stats, begun = run(tmp_path, source, containment, Limits(10 * wall, wall, 256, 1))
    assert stats.tripped is Tripped.WALL and stats.waiting_seconds is not None, stats
    assert stats.stopped_at is not None and stats.stopped_at - begun >= wall, stats
