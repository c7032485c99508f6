"""A judging gone slow gives way (runner/containment/priority.py): from `give_way_at` on, every thread of its run
and the run's session (autogroup) are lowered to GIVE_WAY_NICENESS, never the judge's own.

Counted, never timed: the programs spin until they see their own priority lowered, then print what they see; a run
that never gives way spins into its CPU limit instead (TLE).
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from judge.runner import execute
from judge.runner.containment import priority
from judge.runner.containment.choice import available_containments, choose_containment
from judge.runner.containment.priority import GIVE_WAY_NICENESS
from judge.runner.containment.run_group import GIVE_WAY_WEIGHT
from judge.runner.limits import Limits

AUTOGROUPS = Path("/proc/self/autogroup").exists()
LIMITS = Limits(time_seconds=4.0, wall_seconds=12.0, memory_mib=256, output_mib=1)
# Spins until its own niceness and its session's autogroup's (where there are autogroups) are lowered, in a second
# thread as well as the first; then prints both, as the threads see them, and its cgroup v2 group's cpu.weight
# ("none" without one: cgroup v1, no cpu controller, or no group). Its niceness is read, never set: os.nice(0) sets
# it too, and a lowering between its read and its write makes that write a raise, which no run may (EPERM).
UNTIL_LOWERED = f"""import os, threading, time
def lowered():
    if os.getpriority(os.PRIO_PROCESS, 0) < {GIVE_WAY_NICENESS}:
        return False
    try:
        return int(open("/proc/self/autogroup").read().split()[-1]) >= {GIVE_WAY_NICENESS}
    except (OSError, IndexError):  # no autogroups, or the default one (empty): nothing there to lower
        return True
seen = []
def spin():
    while not lowered() and time.process_time() < 3.5:
        pass
    seen.append(os.getpriority(os.PRIO_PROCESS, 0))
thread = threading.Thread(target=spin)
thread.start()
spin()
thread.join()
def weight():
    try:
        lines = open("/proc/self/cgroup").read().splitlines()
        group = next(line[3:] for line in lines if line.startswith("0::"))
        return open(f"/sys/fs/cgroup{{group}}/cpu.weight").read().strip()
    except (OSError, StopIteration):
        return "none"
print(sorted(seen), lowered(), weight())
"""


def spinner(*, own_session: bool) -> subprocess.Popen[bytes]:
    """A process of two threads that sleep (nothing here needs them to run), in a session of its own or the judge's."""
    source = "import threading, time\nthreading.Thread(target=time.sleep, args=(60,)).start()\ntime.sleep(60)\n"
    return subprocess.Popen([sys.executable, "-S", "-c", source], start_new_session=own_session)


def niceness_of_threads(pid: int) -> list[int]:
    return [os.getpriority(os.PRIO_PROCESS, int(thread)) for thread in os.listdir(f"/proc/{pid}/task")]


def autogroup_niceness(pid: int) -> int | None:
    """None in the default autogroup (a session never made since boot, as in a container), whose file is empty."""
    words = Path(f"/proc/{pid}/autogroup").read_text().split()
    return int(words[-1]) if words else None


def until_threads(process: subprocess.Popen[bytes], count: int) -> None:
    deadline = time.monotonic() + 30
    while len(os.listdir(f"/proc/{process.pid}/task")) < count:
        assert time.monotonic() < deadline, "the second thread never started"
        time.sleep(0.01)


def test_every_thread_and_the_runs_session_are_lowered():
    process = spinner(own_session=True)
    try:
        until_threads(process, 2)
        priority.give_way([process.pid])
        assert niceness_of_threads(process.pid) == [GIVE_WAY_NICENESS] * 2
        if AUTOGROUPS:
            assert autogroup_niceness(process.pid) == GIVE_WAY_NICENESS
    finally:
        process.kill()
        process.wait()


@pytest.mark.skipif(not AUTOGROUPS, reason="no autogroups on this kernel")
def test_the_judges_own_session_is_never_lowered():
    own = autogroup_niceness(os.getpid())
    process = spinner(own_session=False)
    try:
        until_threads(process, 2)
        priority.give_way([process.pid])
        assert niceness_of_threads(process.pid) == [GIVE_WAY_NICENESS] * 2
        assert autogroup_niceness(os.getpid()) == own == autogroup_niceness(process.pid)
    finally:
        process.kill()
        process.wait()


def test_a_process_gone_or_never_there_is_skipped():
    process = spinner(own_session=True)
    process.kill()
    process.wait()
    priority.give_way([process.pid, 2**22 + 1])  # no error: giving way is a courtesy


@pytest.fixture(params=available_containments())
def containment(request):
    return request.param


def run(tmp_path: Path, containment: str, give_way_at: float | None) -> tuple[execute.RunStats, str]:
    program = tmp_path / "main.py"
    program.write_text(UNTIL_LOWERED)
    stdin = tmp_path / "empty.in"
    stdin.touch()
    spec = execute.RunSpec(argv=[sys.executable, "-S", str(program)], cwd=tmp_path, stdin_path=stdin,
                           stdout_path=tmp_path / "out", stderr_path=tmp_path / "err",
                           env={"PATH": "/usr/bin:/bin"}, limit_address_space=False)
    stats = execute.begin(spec, LIMITS, choose_containment(containment), give_way_at=give_way_at).finish()
    return stats, (tmp_path / "out").read_text()


@pytest.mark.parametrize("after", [0.3, -1.0], ids=["while-running", "from-the-start"])
def test_a_run_gives_way_from_its_moment_on(tmp_path, containment, after):
    stats, output = run(tmp_path, containment, time.monotonic() + after)
    assert (stats.tripped, stats.exit_code) == (None, 0), stats
    seen, weight = output.rsplit(" ", 1)
    assert seen == f"[{GIVE_WAY_NICENESS}, {GIVE_WAY_NICENESS}] True"
    if containment == "cgroup":  # a group of its own: lowered where it has a weight (v2, the cpu controller on)
        assert weight.strip() in ("none", str(GIVE_WAY_WEIGHT)), output


@pytest.mark.slow
def test_a_run_with_no_moment_keeps_its_priority(tmp_path):
    own = os.getpriority(os.PRIO_PROCESS, 0)
    stats, output = run(tmp_path, available_containments()[0], None)
    assert stats.tripped is None and output.startswith(f"[{own}, {own}] False "), (stats, output)
    assert output.split()[-1] != str(GIVE_WAY_WEIGHT), output
