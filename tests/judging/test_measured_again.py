"""A test runs again only where its time cannot be trusted yet, and never otherwise: runs are counted (each run of
the program appends a line to a file outside its scratch folder, unboxed), no time is asserted."""

from __future__ import annotations

from pathlib import Path

import pytest

from judge.judging.measuring import MOST_EXTRA_RUNS, NEAR_LIMIT_FLOOR
from judge.judging.submission import judge_submission
from judge.options import RunOptions
from judge.problems.folder import load_problem
from judge.runner.containment.choice import available_containments
from judge.verdicts import Verdict


def counting(submission, tail: str, counter: Path) -> Path:
    """A Python program that notes each of its runs in `counter`, then does `tail`."""
    return submission(f"with open({str(counter)!r}, 'a') as runs:\n    runs.write('ran\\n')\n{tail}", "main.py")


def judged(problem: Path, source: Path, containment: str):
    if containment not in available_containments():
        pytest.skip(f"no {containment} containment here")
    options = RunOptions(sandbox="none", containment=containment)
    return judge_submission(load_problem(problem), source, options)


def test_a_wall_tle_whose_waiting_no_one_measured_is_run_again(tmp_path, make_problem, submission):
    """psutil cannot tell how long a run waited for a CPU: its wall TLE is measured once more before it is given."""
    counter = tmp_path / "runs.txt"
    problem = make_problem({"1": ("", "x\n")}, time_limit=0.2, language_allowance=False)
    result = judged(problem, counting(submission, "import time\ntime.sleep(60)\n", counter), "portable")
    assert result.verdict is Verdict.TLE, result
    assert counter.read_text().count("ran") == 2
    assert len(result.cases[0].cpu_runs) == 2


@pytest.mark.parametrize("containment", ["cgroup", "proc"])
def test_a_wall_tle_with_its_waiting_measured_runs_once(tmp_path, make_problem, submission, containment):
    counter = tmp_path / "runs.txt"
    problem = make_problem({"1": ("", "x\n")}, time_limit=0.2, language_allowance=False)
    result = judged(problem, counting(submission, "import time\ntime.sleep(60)\n", counter), containment)
    assert result.verdict is Verdict.TLE, result
    assert counter.read_text().count("ran") == 1
    assert result.cases[0].cpu_runs == ()


# --- near the limit ---------------------------------------------------------------------------------------------
# The programs spin until their own CPU time reaches a fraction of the 1 s limit: the same CPU time however busy
# the machine, so which side of the band they land on does not depend on load.

def spinning_to(fraction: float) -> str:
    return f"import time\nwhile time.process_time() < {fraction}:\n    pass\nprint('x')\n"


@pytest.mark.parametrize("containment", ["cgroup", "proc"])
def test_a_run_just_over_the_limit_is_measured_again_and_marked(tmp_path, make_problem, submission, containment):
    counter = tmp_path / "runs.txt"
    problem = make_problem({"1": ("", "x\n")}, time_limit=1, language_allowance=False)
    result = judged(problem, counting(submission, spinning_to(1.01), counter), containment)
    case = result.cases[0]
    assert counter.read_text().count("ran") == 1 + MOST_EXTRA_RUNS
    assert len(case.cpu_runs) == 1 + MOST_EXTRA_RUNS and case.cpu_seconds == min(case.cpu_runs)
    assert case.near_limit_band is not None and case.near_limit_band >= NEAR_LIMIT_FLOOR
    assert case.verdict is Verdict.TLE  # every run spent more than the limit: no run can lower it under


@pytest.mark.parametrize(
    ("tail", "verdict"),
    [("print('x')\n", Verdict.AC), ("while True:\n    pass\n", Verdict.TLE), (spinning_to(0.5), Verdict.AC)],
    ids=["fast", "endless", "half"],
)
def test_far_from_the_limit_a_test_runs_once(tmp_path, make_problem, submission, tail, verdict):
    counter = tmp_path / "runs.txt"
    problem = make_problem({"1": ("", "x\n")}, time_limit=1, language_allowance=False)
    result = judged(problem, counting(submission, tail, counter), available_containments()[0])
    assert result.verdict is verdict, result
    assert counter.read_text().count("ran") == 1
    assert (result.cases[0].cpu_runs, result.cases[0].near_limit_band) == ((), None)


def test_just_under_the_limit_is_marked_near_and_runs_once(tmp_path, make_problem, submission):
    """No later run could lower the verdict's CPU time past the limit: AC stands, marked."""
    counter = tmp_path / "runs.txt"
    problem = make_problem({"1": ("", "x\n")}, time_limit=1, language_allowance=False)
    result = judged(problem, counting(submission, spinning_to(0.97), counter), available_containments()[0])
    assert result.verdict is Verdict.AC, result
    assert counter.read_text().count("ran") == 1
    assert result.cases[0].near_limit_band == NEAR_LIMIT_FLOOR


@pytest.mark.parametrize("containment", ["cgroup", "proc"])
@pytest.mark.slow
def test_a_test_measured_again_goes_before_the_next_one_begun_ahead(tmp_path, make_problem, submission, containment):
    """The next test's run, begun while test 1 ran (judge/judging/run_ahead.py), is dropped when test 1 must run
    again: test 1's runs all come first, and test 2's verdict is from a run after them."""
    counter = tmp_path / "runs.txt"
    problem = make_problem({"1": ("1\n", "x\n"), "2": ("2\n", "x\n")}, time_limit=1, language_allowance=False)
    code = (f"import time\ntest = input()\nwith open({str(counter)!r}, 'a') as runs:\n    runs.write(test + '\\n')\n"
            "while test == '1' and time.process_time() < 1.01:\n    pass\nprint('x')\n")
    result = judged(problem, submission(code, "main.py"), containment)
    assert [case.verdict for case in result.cases] == [Verdict.TLE, Verdict.AC], result
    assert len(result.cases[0].cpu_runs) == 1 + MOST_EXTRA_RUNS
    runs = counter.read_text().split()
    assert runs.count("1") == 1 + MOST_EXTRA_RUNS and runs[-1] == "2", runs
