"""The warm box (issue 11): every test of a submission runs in one bubblewrap box, started by a launcher that is
the box's PID 1. Programs aimed at that design (tests/runner/warm_box/) try to carry something from one test to the
next (a file, a process, a connection, a hold on the launcher, the knowledge of which test they are on, counts
the box keeps), to break the reset between two tests, or to read the host's folders in the box's mount table.
Each must learn nothing, in the warm box and in the cold one (a box per test, `--containment proc`), and leave
nothing behind.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import uuid
from pathlib import Path

import psutil
import pytest

from conftest import TEST_TIME_SCALE, write_problem
from judge.runner.containment.choice import available_containments
from judge.runner.sandbox import bwrap_problem

PROGRAMS = Path(__file__).parent / "warm_box"
REPO = Path(__file__).resolve().parents[2]
TESTS = 3
# mode -> extra options of `judge run`: the warm box needs a control group and a judge that is root.
WARM = pytest.mark.skipif(os.geteuid() != 0 or "cgroup" not in available_containments(),
                          reason="a warm box needs a judge that is root and a control group per test")
MODES = {
    "warm": pytest.param([], id="warm", marks=WARM),
    "cold": pytest.param(["--containment", "proc"], id="cold"),
}
pytestmark = pytest.mark.skipif(bwrap_problem() is not None, reason=f"bwrap unusable: {bwrap_problem()}")


def judge_run(tmp_path: Path, program: str, answers: list[str], extra: list[str],
              given: str | list[str] | None = None) -> tuple[dict, str]:
    """`judge run --sandbox bwrap` of a tests/runner/warm_box program on one test per answer, whose input is
    `given` (or `given[k]` for test k), else a fresh tag; returns the report and the tag."""
    tag = "wb" + uuid.uuid4().hex[:12]
    inputs = given if isinstance(given, list) else [tag if given is None else given] * len(answers)
    tests = {f"{k + 1}": (inputs[k] + "\n", answer + "\n") for k, answer in enumerate(answers)}
    problem = write_problem(tmp_path / "p", tests, time_limit=5 * TEST_TIME_SCALE, memory_limit=256,
                            language_allowance=False)
    command = [sys.executable, "-m", "judge", "run", str(problem), str(PROGRAMS / program), "--sandbox", "bwrap",
               "--feedback", "full", "--json", *extra]
    done = subprocess.run(command, capture_output=True, text=True, cwd=REPO, timeout=300)
    assert done.returncode in (0, 1), done.stderr[-2000:]
    return json.loads(done.stdout), tag


def left_behind(tag: str) -> list[psutil.Process]:
    """Live processes named `tag`, the moment the judge has returned: it waits for what it killed to die (a zombie
    is dead, it only waits for its parent, as in test_hostile.py)."""
    return [process for process in psutil.process_iter(["name", "status"])
            if process.info["name"] == tag[:15] and process.info["status"] != psutil.STATUS_ZOMBIE]


def cases(report: dict) -> list[tuple[str, str]]:
    return [(case["verdict"], case["message"]) for case in report["cases"]]


def printed(report: dict) -> list[str]:
    """What the program printed on each test, from the WA message ("got '...'") of a test whose answer is "-"."""
    return [re.search(r"got '([^']*)'", message).group(1) for _, message in cases(report)]


@pytest.mark.parametrize("extra", MODES.values())
@pytest.mark.parametrize(("program", "answer"), [("leave_files.py", "clean"), ("leave_process.py", "alone"),
                                                 ("reach_init.py", "untouched")])
def test_nothing_reaches_the_next_test(tmp_path: Path, program: str, answer: str, extra: list[str]) -> None:
    report, tag = judge_run(tmp_path, program, [answer] * TESTS, extra)
    assert cases(report) == [("AC", "")] * TESTS
    assert left_behind(tag) == []


@pytest.mark.parametrize("extra", MODES.values())
def test_no_test_learns_which_one_it_is(tmp_path: Path, extra: list[str]) -> None:
    report, _ = judge_run(tmp_path, "learn_test_index.py", [str(k + 1) for k in range(TESTS)], extra)
    verdicts = [verdict for verdict, _ in cases(report)]
    assert verdicts == ["AC"] + ["WA"] * (TESTS - 1), cases(report)
    assert all(re.search(r"got '1'$", message) for _, message in cases(report)[1:]), cases(report)


@pytest.mark.parametrize("extra", MODES.values())
def test_a_warm_box_serves_every_test_of_a_submission(tmp_path: Path, extra: list[str]) -> None:
    """What the rest of this file proves holds in a box that really is shared (and, cold, really is not)."""
    report, _ = judge_run(tmp_path, "box_identity.py", ["-"] * TESTS, extra)
    boxes = TESTS if extra else 1
    seen = {re.search(r"got '(pid:\[\d+\]net:\d+)'", message).group(1) for _, message in cases(report)}
    assert len(seen) == boxes, cases(report)


@pytest.mark.parametrize("extra", MODES.values())
@pytest.mark.parametrize("program", ["count_tests.py", "count_ids.py"])
def test_every_test_finds_the_counts_of_a_fresh_box(tmp_path: Path, program: str, extra: list[str]) -> None:
    """Inode numbers in /box, /tmp and /dev/shm, System V ids, the loopback's packets and `Udp: OutDatagrams`
    (count_tests.py), and the unique ids of mounts and namespaces against the box's own (count_ids.py: Linux 6.8
    on) are the same for every test: none counts the tests before it."""
    report, _ = judge_run(tmp_path, program, ["-"] * TESTS, extra)
    seen = printed(report)
    assert len(set(seen)) == 1, seen


@pytest.mark.parametrize("extra", MODES.values())
@pytest.mark.parametrize("folder", ["/box", "/tmp", "/dev/shm"])
def test_an_unnamed_file_still_renews_its_folder(tmp_path: Path, folder: str, extra: list[str]) -> None:
    """A file with no name (O_TMPFILE), which no listing shows, takes an inode number all the same: the next
    test must not see the count grow (a reset that skipped folders no one seemed to touch would let it)."""
    report, _ = judge_run(tmp_path, "unnamed_inode.py", ["-"] * TESTS, extra, given=folder)
    seen = printed(report)
    assert len(set(seen)) == 1, seen


@pytest.mark.parametrize("extra", MODES.values())
def test_inode_numbers_taken_without_a_trace_do_not_reach_the_next_test(tmp_path: Path, extra: list[str]) -> None:
    """Inode numbers taken by opens that Landlock refused (hidden_inodes.py), which no inotify watch sees, are
    gone for the next test: a reset that trusted a watch of the folders (tried, and dropped for this) let test 3
    see 1,000 more than test 1."""
    given = ["look", "spend 1000", "look"]
    report, _ = judge_run(tmp_path, "hidden_inodes.py", ["-"] * len(given), extra, given=given)
    seen = printed(report)
    assert seen[0] == seen[2], seen


@pytest.mark.parametrize("extra", MODES.values())
def test_a_descriptor_in_flight_carries_nothing_to_the_next_test(tmp_path: Path, extra: list[str]) -> None:
    """Locks and an abstract socket name held by a socket sent into itself (park_descriptor.py), which no process
    holds once the test is killed: gone before the next test (the warm box waits for the kernel to collect it)."""
    given = ["send:secret42", "read", "read"]
    report, _ = judge_run(tmp_path, "park_descriptor.py", ["-"] * len(given), extra, given=given)
    assert printed(report) == ["sent", "got:/name-free", "got:/name-free"], cases(report)


@pytest.mark.parametrize("extra", MODES.values())
def test_no_connection_outlives_its_test(tmp_path: Path, extra: list[str]) -> None:
    """A socket left in TIME_WAIT (it survives the processes of its test) is gone for the next test."""
    report, _ = judge_run(tmp_path, "time_wait.py", ["none"] * TESTS, extra)
    assert cases(report) == [("AC", "")] * TESTS


@pytest.mark.parametrize("extra", MODES.values())
@pytest.mark.parametrize("depth", [1500, 5000])
def test_what_a_test_leaves_cannot_break_the_box(tmp_path: Path, depth: int, extra: list[str]) -> None:
    """Folders nested deeper than Python's recursion limit are cleared like any others: every test gets its
    verdict (it once killed the launcher, and every later test was JE)."""
    report, _ = judge_run(tmp_path, "deep_folders.py", ["left"] * TESTS, extra, given=str(depth))
    assert cases(report) == [("AC", "")] * TESTS


@WARM
def test_the_box_names_no_folder_of_the_host(tmp_path: Path) -> None:
    """The warm box's mount table names no folder of the host (the judge's temporary folder holding the program,
    the judge's own code). A box per test still shows its program folder's host path (see README)."""
    report, _ = judge_run(tmp_path, "host_paths.py", ["clean"] * TESTS, [])
    assert cases(report) == [("AC", "")] * TESTS


@pytest.mark.parametrize("extra", MODES.values())
def test_a_program_larger_than_the_output_limit_runs(tmp_path: Path, extra: list[str]) -> None:
    """The warm box copies the program folder in before the first test: the copy is not held to the output limit
    the launcher puts on every run (a static C++ program is larger than the default 1 MiB)."""
    report, _ = judge_run(tmp_path, "large_program.c", ["ran"] * TESTS, extra)
    assert cases(report) == [("AC", "")] * TESTS
