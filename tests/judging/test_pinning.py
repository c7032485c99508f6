"""Workers that do not disturb each other (issue 43, item 6): with -j N and a core for each, a judging's runs are
pinned to a core no other judging holds, one thread of it (its SMT siblings are held with it); with too few cores,
or -j 1, nothing is pinned; the provenance says which. The unit tests hold cores in a cache folder of their own
(the judgings use the real one: their Python's venv lives there)."""

from __future__ import annotations

import msgspec.structs
import os
from contextlib import ExitStack

import pytest

from judge.host_timing import read_host_timing
from judge.judging.pinning import pinned
from judge.judging.submission import judge_submission
from judge.options import RunOptions
from judge.problems.folder import load_problem
from judge.verdicts import Verdict

TWO_CORES = ((0,), (1,))


@pytest.fixture
def own_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))


@pytest.fixture
def host():
    if len(os.sched_getaffinity(0)) < 2:
        pytest.skip("pinning needs two CPUs this process may use")
    return msgspec.structs.replace(read_host_timing(), cores=TWO_CORES)


def test_each_judging_gets_a_core_no_other_holds(host, own_cache):
    before = os.sched_getaffinity(0)
    with ExitStack() as stack:
        said = [stack.enter_context(pinned(host, 2)) for _ in range(2)]
        assert os.sched_getaffinity(0) == {1}  # the innermost holds the second core
        assert said == ["pinned to CPU 0, a core of its own", "pinned to CPU 1, a core of its own"]
        assert stack.enter_context(pinned(host, 2)) == "not pinned: every core was held by another judging"
    assert os.sched_getaffinity(0) == before


def test_siblings_are_held_with_their_core(host, own_cache):
    one_core = msgspec.structs.replace(host, cores=((0, 1),))
    with pinned(one_core, 1) as one, pinned(one_core, 2) as first:
        assert one == "not pinned: one judging at a time"
        assert first == "not pinned: 2 workers on 1 cores, too few to give each a core of its own"
    with pinned(msgspec.structs.replace(host, cores=((0, 1), (2, 3))), 2) as said:
        assert said == "pinned to CPU 0, a core of its own (no other judging on its SMT siblings [1])"
        assert os.sched_getaffinity(0) == {0}


def test_the_topology_groups_siblings(tmp_path):
    for cpu in sorted(os.sched_getaffinity(0)):
        path = tmp_path / f"sys/devices/system/cpu/cpu{cpu}/topology/thread_siblings_list"
        path.parent.mkdir(parents=True)
        path.write_text(",".join(str(each) for each in sorted(os.sched_getaffinity(0))) + "\n")
    assert read_host_timing(tmp_path).cores == (tuple(sorted(os.sched_getaffinity(0))),)
    assert read_host_timing(tmp_path / "nothing").cores == tuple((cpu,) for cpu in sorted(os.sched_getaffinity(0)))


@pytest.mark.parametrize("workers", [1, 2])
def test_the_runs_of_a_worker_among_several_are_pinned(host, make_problem, submission, workers):
    """The program prints how many CPUs it may run on: one when pinned, every one otherwise."""
    pinned_to_one = workers > 1
    expected = "1" if pinned_to_one else str(len(os.sched_getaffinity(0)))
    problem = make_problem({"1": ("", expected + "\n")})
    source = submission("import os\nprint(len(os.sched_getaffinity(0)))\n", "cpus.py")
    result = judge_submission(load_problem(problem), source, RunOptions(workers=workers, host_timing=host))
    assert result.verdict is Verdict.AC, result
    assert result.provenance["pinning"].startswith("pinned to CPU" if pinned_to_one else "not pinned")
