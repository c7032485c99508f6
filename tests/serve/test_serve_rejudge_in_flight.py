"""A rejudge while the submission is still being judged (issue 39, item 10): the run that was going finishes under
a claim the rejudge voided, and only the rejudge's result is stored. A real `judge serve -j 2` over HTTP.

The loss needs the judging process to claim the rejudged submission again while its stale run still goes: another
submission finishing in between lets the loop go round. So kim's slow program is rejudged while lee's quicker one
runs beside it; lee's verdict frees a worker, the rejudge starts, and kim's stale run ends after that."""

from __future__ import annotations

import re
import time
from pathlib import Path

import httpx2 as httpx
import pytest
from conftest import write_problem
from serve_fixtures import AC_SOURCE, STUDENTS, running_server

from judge.serve.store import Store
from judge.verdicts import Verdict

DEADLINE_SECONDS = 120.0
SLOW_AC = "import time\ntime.sleep(2.5)\n" + AC_SOURCE
"""Accepted, and each test lasts long enough for the teacher to rejudge while it runs (the limit is 2 s of CPU,
so 5 s of wall time)."""
QUICKER_AC = "import time\ntime.sleep(1.0)\n" + AC_SOURCE


def _signed_in(url: str, user: str, password: str) -> tuple[httpx.Client, str]:
    """A browser-like client signed in through the login form, and the session's CSRF token."""
    client = httpx.Client(base_url=url, timeout=30, follow_redirects=True)
    token = re.search(r'name="csrf" value="([^"]+)"', client.get("/login").text)
    assert token is not None
    client.post("/login", data={"csrf": token.group(1), "id": user, "password": password})
    page_token = re.search(r'name="csrf-token" content="([^"]+)"', client.get("/").text)
    assert page_token is not None
    return client, page_token.group(1)


def _submit(client: httpx.Client, token: str, source: str) -> int:
    posted = client.post("/api/submissions", headers={"x-csrf-token": token},
                         files={"file": ("a.py", source.encode())}, data={"problem": "sum"})
    assert posted.status_code == 201, posted.text
    return int(posted.json()["id"])


def _wait_for(store: Store, submission_id: int, wanted: str) -> None:
    deadline = time.monotonic() + DEADLINE_SECONDS
    while (row := store.submission(submission_id)) is None or row.progress != wanted:
        assert row is None or row.status != "done", f"judged before the rejudge: {row}"
        assert time.monotonic() < deadline, f"never reached {wanted!r}: {row}"
        time.sleep(0.05)


@pytest.mark.slow
def test_a_rejudge_during_judging_stores_the_rejudges_result_not_the_stale_runs(tmp_path: Path) -> None:
    problems = tmp_path / "problems"
    write_problem(problems / "sum", {"1": ("1 2\n", "3\n"), "2": ("5 7\n", "12\n")}, id="sum", time_limit=2)
    with running_server(tmp_path, "-j", "2") as server:
        teacher, teacher_token = _signed_in(server.url, "teacher", (server.data / "teacher-secret.txt").read_text().strip())
        kim, kim_token = _signed_in(server.url, STUDENTS[0][0], STUDENTS[0][2])
        lee, lee_token = _signed_in(server.url, STUDENTS[1][0], STUDENTS[1][2])
        submission_id = _submit(kim, kim_token, SLOW_AC)
        quicker = _submit(lee, lee_token, QUICKER_AC)
        store = Store(server.data)
        _wait_for(store, submission_id, "test 1 of 2")

        (problems / "sum" / "tests" / "2.ans").write_text("13\n", encoding="utf-8")  # the teacher fixes a test
        rejudged = teacher.post("/teacher/rejudge", data={"csrf": teacher_token, "target": "submission",
                                                          "submission": str(submission_id), "reason": "test 2 fixed"})
        assert rejudged.status_code == 200 and "1 submission(s) queued again" in rejudged.text
        lee_row = store.submission(quicker)
        assert lee_row is not None and lee_row.status != "done", "lee was judged before the rejudge: too slow a machine"

        deadline = time.monotonic() + DEADLINE_SECONDS
        while (row := store.submission(submission_id)) is None or row.status != "done":
            assert time.monotonic() < deadline, f"the rejudge was never judged: {row}"
            time.sleep(0.1)
        # the stale run was accepted on the old answer; the rejudge judges the fixed test, which it fails
        assert row.verdict is Verdict.WA, row
        assert row.tests_passed == 1
