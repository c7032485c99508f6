"""The `proc` fallback's own bounds (issue 23): without a control group the judge still bounds a run's tasks, stops
its CPU time within 10 % of the limit, and kills a tree that forks as fast as it can.

Every fork bomb here starts inside a cgroup v1 pids group of its own (pids.max 4000: far past the poll's limit, so the poll, not the group, stops the bomb) made under the test's pids
group: under `--sandbox none` as root nothing else bounds it (the kernel exempts root from RLIMIT_NPROC), and a
runaway bomb would take the machine. The group is also the exact witness that nothing was left behind: it is empty.
Without such a group (not root, no v1 pids hierarchy) those tests skip.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from conftest import ROOT, needs, write_problem

from judge.runner.containment import proctree
from judge.runner.containment.polled import PortableContainment

PIDS_ROOT = Path("/sys/fs/cgroup/pids")
BOMB_PIDS_MAX = 4000
EXIT_GRACE_SECONDS = 10.0  # how long killed processes may take to leave the group's task list
CPU_SLACK = 1.10  # the bound: the CPU time at the kill is within 10 % of the limit

FORK_BOMB_C = textwrap.dedent("""
    #include <sys/prctl.h>
    #include <unistd.h>
    int main(void) { prctl(PR_SET_NAME, "@TAG@", 0, 0, 0); for (;;) fork(); }
""")
THREAD_BOMB_PY = textwrap.dedent("""
    import threading, time
    threading.stack_size(1 << 16)
    while True:
        threading.Thread(target=time.sleep, args=(60,), daemon=True).start()
""")
BUSY_C = "int main(void) { for (;;) ; }\n"
BUSY_CHILDREN_C = textwrap.dedent("""
    #include <unistd.h>
    int main(void) { for (int i = 0; i < 8; i++) if (fork() == 0) for (;;) ; for (;;) pause(); }
""")
# Runs one program under the `proc` containment as a child subreaper, so that every process of the tree comes back
# to it and its CPU time is counted by the kernel in RUSAGE_CHILDREN: the true CPU time, whatever the poll saw.
TRUE_CPU = textwrap.dedent("""
    import ctypes, json, os, resource, sys
    from pathlib import Path
    from judge.runner import execute
    from judge.runner.containment.choice import choose_containment
    from judge.runner.limits import Limits
    ctypes.CDLL(None).prctl(36, 1, 0, 0, 0)  # PR_SET_CHILD_SUBREAPER
    program, limit = Path(sys.argv[1]), float(sys.argv[2])
    folder = program.parent
    (folder / "in").touch()
    spec = execute.RunSpec(argv=[str(program)], cwd=folder, stdin_path=folder / "in", stdout_path=folder / "out",
                           stderr_path=folder / "err", env={"PATH": "/usr/bin:/bin"})
    limits = Limits(time_seconds=limit, wall_seconds=20 * limit + 10, memory_mib=256, output_mib=1)
    stats = execute.run(spec, limits, choose_containment("proc"))
    while True:
        try:
            os.wait()
        except ChildProcessError:
            break
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    print(json.dumps({"tripped": stats.tripped and stats.tripped.value, "judged": stats.cpu_seconds,
                      "true": usage.ru_utime + usage.ru_stime}))
""")


def _own_pids_group() -> Path | None:
    if os.geteuid() != 0 or not (PIDS_ROOT / "cgroup.procs").is_file():
        return None
    for line in Path("/proc/self/cgroup").read_text().splitlines():
        _, controllers, path = line.split(":", 2)
        if "pids" in controllers.split(","):
            return PIDS_ROOT / path.lstrip("/")
    return None


def _tasks(group: Path) -> list[int]:
    return [int(pid) for pid in (group / "cgroup.procs").read_text().split()]


@pytest.fixture
def pids_group() -> Iterator[Path]:
    """A fresh pids group (pids.max BOMB_PIDS_MAX) for a fork bomb, emptied and removed afterwards."""
    own = _own_pids_group()
    if own is None:
        pytest.skip("needs root and a cgroup v1 pids hierarchy to bound a fork bomb")
    group = own / f"polled-bounds-{uuid.uuid4().hex[:8]}"
    group.mkdir()
    try:
        (group / "pids.max").write_text(str(BOMB_PIDS_MAX))
        yield group
    finally:
        deadline = time.monotonic() + EXIT_GRACE_SECONDS
        while (left := _tasks(group)) and time.monotonic() < deadline:
            for pid in left:
                try:
                    os.kill(pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
            time.sleep(0.05)
        group.rmdir()


def _joining(group: Path):  # type: ignore[no-untyped-def]
    """`preexec_fn` that moves the new process into `group` before it execs."""
    return lambda: (group / "cgroup.procs").write_text("0")


def _wait_empty(group: Path) -> list[int]:
    deadline = time.monotonic() + EXIT_GRACE_SECONDS
    while (left := _tasks(group)) and time.monotonic() < deadline:
        time.sleep(0.05)
    return left


@needs("gcc")
@pytest.mark.parametrize(("name", "source"), [("bomb.c", FORK_BOMB_C), ("threads.py", THREAD_BOMB_PY)])
def test_a_bomb_under_proc_is_re_and_leaves_nothing(tmp_path, sandbox, pids_group, name, source):
    """Past the process limit the poll kills the whole tree and the run is RE, "too many processes", as under a
    control group: a fork bomb's verdict does not depend on the containment (README, Verdicts)."""
    problem = write_problem(tmp_path / "problem", time_limit=2)
    submission = tmp_path / name
    submission.write_text(source.replace("@TAG@", f"hx{uuid.uuid4().hex[:8]}"))
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        [sys.executable, "-m", "judge", "run", str(problem), str(submission), "--sandbox", sandbox,
         "--containment", "proc", "--json", "--feedback", "full"],
        capture_output=True, text=True, timeout=300, cwd=ROOT, env=env, preexec_fn=_joining(pids_group))
    assert done.returncode == 1, done.stderr[-2000:]
    report = json.loads(done.stdout)
    case = report["cases"][0]
    assert report["verdict"] == "RE", case
    # RLIMIT_NPROC (the machine's tasks plus the allowance) may refuse a thread before the next look sees the
    # tree past its limit: Python then ends on its own error, still RE, and says why in its own words.
    refused = name == "threads.py" and "can't start new thread" in case["message"]
    assert refused or case["message"].split(" (")[0] == "too many processes", case
    assert _wait_empty(pids_group) == [], "processes left behind"


@needs("gcc")
@pytest.mark.parametrize("source", [BUSY_C, BUSY_CHILDREN_C], ids=["one-loop", "eight-children"])
def test_the_cpu_limit_holds_within_ten_percent(tmp_path, source):
    """The poll stops a busy tree within 10 % of its CPU limit, counted by the kernel (the judge is a subreaper
    of the run), not by the poll; before the poll's interval followed the CPU budget, 8 busy children on 2 cores
    got 15-20 % past a 0.3 s limit."""
    (tmp_path / "busy.c").write_text(source)
    subprocess.run(["gcc", "-O1", "-o", tmp_path / "busy", tmp_path / "busy.c"], check=True)
    limit = 0.5
    done = subprocess.run([sys.executable, "-c", TRUE_CPU, str(tmp_path / "busy"), str(limit)], capture_output=True,
                          text=True, timeout=300, cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert done.returncode == 0, done.stderr[-2000:]
    measured = json.loads(done.stdout)
    print(f"limit {limit} s: true CPU {measured['true']:.3f} s, judged {measured['judged']:.3f} s")
    assert measured["tripped"] == "cpu", measured
    assert limit < measured["true"] <= limit * CPU_SLACK, measured
    assert measured["judged"] <= measured["true"] + 0.01, measured  # the poll never counts more than was spent


@needs("gcc")
@pytest.mark.parametrize("containment", ["proc", "portable"])
@pytest.mark.slow
def test_the_kill_outruns_a_fork_bomb(tmp_path, pids_group, containment):
    """A tree forking as fast as it can, hundreds strong, is stopped and killed whole by one kill, which waits for
    the last of it: its pids group is empty afterwards."""
    (tmp_path / "bomb.c").write_text(FORK_BOMB_C.replace("@TAG@", "bomb"))
    subprocess.run(["gcc", "-O1", "-o", tmp_path / "bomb", tmp_path / "bomb.c"], check=True)
    token = uuid.uuid4().hex
    forks = proctree.forks_so_far()
    bomb = subprocess.Popen([tmp_path / "bomb"], env={proctree.RUN_TOKEN_VARIABLE: token}, start_new_session=True,
                            preexec_fn=_joining(pids_group))  # noqa: PLW1509 (the test starts no thread)
    try:
        deadline = time.monotonic() + 30
        while len(_tasks(pids_group)) < BOMB_PIDS_MAX // 2 and time.monotonic() < deadline:
            time.sleep(0.002)
        assert len(_tasks(pids_group)) >= BOMB_PIDS_MAX // 2, "the bomb did not grow"
        if containment == "proc":
            proctree.Spawned(bomb.pid, forks, token).kill()
        else:
            run = PortableContainment().open(256, 64)
            run.started(bomb.pid)
            run.kill()
        assert bomb.wait(timeout=EXIT_GRACE_SECONDS) == -signal.SIGKILL
        assert _wait_empty(pids_group) == [], "processes left behind"
    finally:
        bomb.kill()
        bomb.wait()

