"""The judging order of `judge serve` (issue 41), over real HTTP against a real `judge serve -j 2`:

- a free worker takes the next submission at once: one student's endless loop holds one worker, and another
  student's correct submission, sent while it runs, gets its verdict first (counted, never timed: when the first
  verdict is stored, it is the correct one's and the loop is still being judged);
- the slow lane: two endless loops hold both of `-j 2`'s workers, and a third student's correct submission still
  gets its verdict before either loop's, judged in a spare process beside the loops gone slow; the loops are still
  TLE; a judging gone slow gives way (its programs run at a lower priority: runner/containment/priority.py), a
  fresh one does not;
- BOJ's order: a pass/fail problem's judging stops at the first test that is not accepted, and the result names the
  tests after it as not run; a scored problem runs every test.
"""

from __future__ import annotations

import base64
import json
import shutil
import time
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from conftest import write_problem
from serve_fixtures import AC_SOURCE, STUDENTS, running_server, write_roster

from judge.serve.store import Store, StoredSubmission
from judge.verdicts import Verdict

DEADLINE_SECONDS = 180.0
ENDLESS_LOOP = "while True:\n    pass\n"
EVENS = Path(__file__).parent.parent / "packages" / "evens"


def _basic(student: tuple[str, str, str]) -> str:
    return "Basic " + base64.b64encode(f"{student[0]}:{student[2]}".encode()).decode("ascii")


def _submit(url: str, student: tuple[str, str, str], problem: str, source: str) -> int:
    boundary = "orderboundary"
    body = (f'--{boundary}\r\nContent-Disposition: form-data; name="problem"\r\n\r\n{problem}\r\n'
            f'--{boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.py"\r\n\r\n{source}\r\n'
            f"--{boundary}--\r\n").encode()
    request = urllib.request.Request(f"{url}api/submissions", data=body, method="POST", headers={
        "Content-Type": f"multipart/form-data; boundary={boundary}", "Authorization": _basic(student)})
    with urllib.request.urlopen(request, timeout=60) as response:
        assert response.status == 201
        return int(json.loads(response.read())["id"])


def _document(url: str, student: tuple[str, str, str], submission_id: int) -> dict[str, Any]:
    request = urllib.request.Request(f"{url}api/submissions/{submission_id}",
                                     headers={"Authorization": _basic(student)})
    with urllib.request.urlopen(request, timeout=60) as response:
        document: dict[str, Any] = json.loads(response.read())
    return document


def _until(store: Store, wanted: str, ready: Any) -> dict[int, StoredSubmission]:
    """The submissions by id, read in one query, once `ready(them)` holds (bounded by DEADLINE_SECONDS)."""
    deadline = time.monotonic() + DEADLINE_SECONDS
    while not ready(rows := {row.id: row for row in store.submissions()}):
        assert time.monotonic() < deadline, f"never {wanted}: {rows}"
        time.sleep(0.05)
    return rows


@pytest.mark.slow  # 8.3 s here: a server of its own (the default run keeps to ten minutes)
def test_a_correct_submission_is_not_held_behind_another_students_endless_loop(tmp_path: Path) -> None:
    kim, lee = STUDENTS
    with running_server(tmp_path, "-j", "2") as server:
        store = Store(server.data)
        loop = _submit(server.url, kim, "sum", ENDLESS_LOOP)
        _until(store, "claimed the endless loop", lambda rows: rows[loop].status == "judging")
        correct = _submit(server.url, lee, "sum", AC_SOURCE)

        first = _until(store, "judged either", lambda rows: any(row.status == "done" for row in rows.values()))
        assert first[correct].status == "done" and first[loop].status != "done", first
        assert first[correct].verdict is Verdict.AC

        last = _until(store, "judged the endless loop", lambda rows: rows[loop].status == "done")
        assert last[loop].verdict is Verdict.TLE
        result = _document(server.url, kim, loop)["result"]
        assert [case["name"] for case in result["cases"]] == ["sample1"] and result["not_run"] == ["2"]


@pytest.mark.slow  # 10-20 s of judging: CI runs it in the slow suite
def test_two_endless_loops_on_both_workers_do_not_hold_a_fresh_submission(tmp_path: Path) -> None:
    kim, lee = STUDENTS
    park = ("park", "Park Jiwoo", "park-password")
    write_roster(tmp_path / "roster.csv", (kim, lee, park))
    with running_server(tmp_path, "-j", "2") as server:
        store = Store(server.data)
        loops = [_submit(server.url, kim, "sum", ENDLESS_LOOP), _submit(server.url, lee, "sum", ENDLESS_LOOP)]
        _until(store, "claimed both loops", lambda rows: all(rows[loop].status == "judging" for loop in loops))
        correct = _submit(server.url, park, "sum", AC_SOURCE)

        first = _until(store, "judged any", lambda rows: any(row.status == "done" for row in rows.values()))
        assert first[correct].status == "done" and first[correct].verdict is Verdict.AC, first
        assert all(first[loop].status == "judging" for loop in loops), first

        last = _until(store, "judged both loops", lambda rows: all(rows[loop].status == "done" for loop in loops))
        assert [last[loop].verdict for loop in loops] == [Verdict.TLE, Verdict.TLE]


NICENESS = "os.getpriority(os.PRIO_PROCESS, 0)"
"""Read, never set: os.nice(0) reads and then sets its niceness, and when the judge lowered it between the two
the setting raised it back, which no run may (EPERM, an RE: once in CI, about 1 lowering in 100 here)."""
PATIENT = f"""import os, time
while {NICENESS} < 5 and time.process_time() < 3:
    pass
print("gave way" if {NICENESS} >= 5 else "kept its priority")
"""


@pytest.mark.slow  # 5-8 s of judging: CI runs it in the slow suite
def test_a_judging_gone_slow_gives_way_and_a_fresh_one_does_not(tmp_path: Path) -> None:
    """Counted, not timed: the slow one spins until it sees its priority lowered (else into 3 s of CPU time)."""
    problems = tmp_path / "problems"
    write_problem(problems / "patience", {"1": ("", "gave way\n")}, id="patience", title="Patience", time_limit=4)
    write_problem(problems / "fresh", {"1": ("", "0\n")}, id="fresh", title="Fresh")
    kim, lee = STUDENTS
    with running_server(tmp_path, "-j", "2") as server:
        slow = _submit(server.url, kim, "patience", PATIENT)
        fresh = _submit(server.url, lee, "fresh", f"import os\nprint({NICENESS})\n")
        done = _until(Store(server.data), "judged both", lambda rows: all(row.status == "done" for row in rows.values()))
    assert (done[slow].verdict, done[fresh].verdict) == (Verdict.AC, Verdict.AC), (done[slow].result_json,
                                                                                   done[fresh].result_json)


@pytest.mark.slow  # 5-13 s in Chromium or of judging: CI runs it in the slow suite
def test_a_pass_fail_problem_stops_at_the_first_failure_and_a_scored_one_runs_every_test(tmp_path: Path) -> None:
    problems = tmp_path / "problems"
    tests = {"sample1": ("1 2\n", "3\n"), "2": ("5 7\n", "12\n"), "3": ("2 2\n", "4\n"), "4": ("3 3\n", "6\n"),
             "5": ("4 1\n", "5\n")}
    write_problem(problems / "sum", tests, id="sum", title="A+B")
    shutil.copytree(EVENS, problems / "evens")
    wrong_on_equal = "a, b = map(int, input().split())\nprint(a + b if a != b else 0)\n"
    partly_right = (EVENS / "submissions" / "partially_accepted" / "small_only.py").read_text(encoding="utf-8")
    kim = STUDENTS[0]
    with running_server(tmp_path, "-j", "2") as server:
        stopped = _submit(server.url, kim, "sum", wrong_on_equal)
        scored = _submit(server.url, kim, "evens", partly_right)
        _until(Store(server.data), "judged both", lambda rows: all(row.status == "done" for row in rows.values()))
        stopped_result = _document(server.url, kim, stopped)["result"]
        scored_result = _document(server.url, kim, scored)["result"]

    assert stopped_result["verdict"] == "WA"
    assert [case["name"] for case in stopped_result["cases"]] == ["sample1", "2", "3"]  # test 3 is the first WA
    assert stopped_result["not_run"] == ["4", "5"]
    assert len(scored_result["cases"]) == 6 and scored_result["not_run"] == []  # the sample and 5 secret tests
    assert any(case["verdict"] != "AC" for case in scored_result["cases"][:-1])  # it went on past a failure
    assert scored_result["score"] is not None
