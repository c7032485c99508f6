"""Many warm boxes starting at once on a loaded machine never fail a correct program (issue 44, item 7).

In the field a correct program was JE about once in a hundred submissions: `the launcher could not start
/program/main: ... [Errno 19] No such device`. ENODEV is what a write to a control group's `tasks` or
`cgroup.procs` returns once the group is removed. Another judge's sweep of stale groups removed a live judge's
groups while they held no process (the launcher's home group while the program compiled, the tests' run group
between two tests): it took them for a dead judge's, looking for the pid in their names in a /proc of its own,
where a judge of another PID namespace (a container's, or the host's seen from one) is another process or none.
The launcher then failed to go back to its home group after starting each test. judge/runner/containment/stale_groups.py
now puts the judge's PID namespace in a group's name and sweeps only its own namespace's groups, asking the kernel
whether their judge lives.

Here several judges start boxes at once (a box per submission, its tests sharing one run group, as a judging
does), with CPU hogs beside and judges starting over and over, in this PID namespace and in one of their own: every
run of the correct program must come back right. Before the change 800 of these 3,000 runs were JE.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import threading
from collections import Counter
from pathlib import Path

import pytest

from judge.runner.containment.choice import available_containments
from judge.runner.sandbox import bwrap_problem

HELPER = Path(__file__).with_name("box_starts.py")
REPO = Path(__file__).resolve().parents[2]
JUDGES = 4  # judges starting boxes at once (two per core on the 2-core machines this is sized for)
BOXES = 250  # per judge: 1,000 box starts in all
TESTS = 3  # per box: 3,000 runs
HOGS = 2  # processes burning a core each
# A judge starting: its first control group sweeps the groups stale judges left (stale_groups.py).
JUDGE_STARTING = "from judge.runner.containment import cgroups; cgroups.availability()"
OWN_PID_NAMESPACE = ["unshare", "--pid", "--fork", "--mount-proc"]

pytestmark = [
    pytest.mark.slow,  # about 35 s of 3,000 runs beside hogs: the default suite stays under ten minutes
    pytest.mark.skipif(os.geteuid() != 0 or "cgroup" not in available_containments() or bwrap_problem() is not None,
                       reason="warm boxes need bwrap, a judge that is root and a control group per test"),
    pytest.mark.skipif(shutil.which("unshare") is None, reason="util-linux's unshare is not installed"),
]


def start_judges_until(stop: threading.Event, started: Counter[str]) -> None:
    """Judges starting one after another until `stop`, every other one in a PID namespace of its own; `started`
    counts them by where they ran (or by what went wrong)."""
    while not stop.is_set():
        for where, prefix in (("here", []), ("own PID namespace", OWN_PID_NAMESPACE)):
            done = subprocess.run([*prefix, sys.executable, "-c", JUDGE_STARTING], cwd=REPO, capture_output=True,
                                  text=True)
            started[where if done.returncode == 0 else done.stderr.strip()[-300:]] += 1


def test_boxes_started_at_once_under_load_never_fail_a_correct_program() -> None:
    hogs = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(HOGS)]
    stop = threading.Event()
    started: Counter[str] = Counter()
    starting = threading.Thread(target=start_judges_until, args=(stop, started), daemon=True)
    starting.start()
    judges: list[subprocess.Popen[str]] = []
    try:
        judges += [subprocess.Popen([sys.executable, str(HELPER), str(BOXES), str(TESTS)], cwd=REPO,
                                    stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
                   for _ in range(JUDGES)]
        outputs = [judge.communicate(timeout=1800) for judge in judges]
    finally:
        stop.set()
        for process in [*hogs, *judges]:  # the judges only if they did not finish
            process.kill()
            process.wait()
        starting.join(timeout=60)
    assert set(started) == {"here", "own PID namespace"}, started
    for judge, (_, err) in zip(judges, outputs, strict=True):
        assert judge.returncode == 0, err[-2000:]
    ended = [json.loads(out) for out, _ in outputs]
    failures = [line for one in ended for line in one["je"]]
    assert (sum(one["ok"] for one in ended), sum(one["wrong"] for one in ended), len(failures), failures[:3]) == (
        JUDGES * BOXES * TESTS, 0, 0, [])
