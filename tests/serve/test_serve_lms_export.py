"""serve's export for an LMS over real HTTP (issue 42): a real `judge serve` with a roster carrying e-mails, SIS ids
and sections and an assignment due a day and a half ago (10 % a day late), one late accepted submission; the
teacher's export lists canvas.csv and moodle.csv, and the download route serves them in the columns Canvas and
Moodle document, with the late credit counted from the time the server stored the submission."""

from __future__ import annotations

import csv
import io
import json
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from http_session import signed_in
from serve_fixtures import AC_SOURCE, running_server, write_problems
from serve_http import Browser, basic

from judge.serve.exports import EXPORT_FILES

HOSTILE = '=HYPERLINK("http://evil.example","y")'
ROSTER = (
    "id,name,password,email,sis_id,section\n"
    "kim,Kim Minji,kim-password,kim@school.kr,S-1,A\n"
    f'lee,"{HOSTILE.replace(chr(34), chr(34) * 2)}",lee-password,-lee@school.kr,S-2,B\n'
)
LATE_RULE = "2 days late: 80 % (10 % a day, at most 3 days)"


def _rows(body: bytes) -> list[list[str]]:
    return list(csv.reader(io.StringIO(body.decode("utf-8-sig"), newline="")))


def _judged(url: str, submission: int) -> None:
    api = Browser(url)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        status = json.loads(api.get(f"/api/submissions/{submission}", basic("kim", "kim-password")).body)["status"]
        if status == "done":
            return
        time.sleep(0.2)
    raise AssertionError(f"submission {submission} was not judged")


@pytest.mark.slow
def test_the_teachers_export_serves_canvas_and_moodle_files_with_late_credit(tmp_path: Path) -> None:
    problems = write_problems(tmp_path / "problems")
    due = (datetime.now(UTC) - timedelta(days=1.5)).strftime("%Y-%m-%d %H:%M")  # submitted 2 started days late
    (problems / "assignments.yaml").write_text(
        "zone: UTC\nassignments:\n  - id: week1\n    title: Week 1\n    problems: [sum]\n"
        f"    due: {due}\n    late: {{percent_per_day: 10, max_days: 3}}\n", encoding="utf-8")
    (tmp_path / "roster.csv").write_text(ROSTER, encoding="utf-8")
    assert {"canvas.csv", "moodle.csv"} <= set(EXPORT_FILES)
    with running_server(tmp_path) as server:
        created = Browser(server.url).post_multipart(
            "/api/submissions", {"problem": "sum", "language": "python3", "code": AC_SOURCE}, basic("kim", "kim-password"))
        assert created.status == 201, created.body
        _judged(server.url, int(json.loads(created.body)["id"]))
        teacher = signed_in(server.url, "teacher", (server.data / "teacher-secret.txt").read_text().strip())
        assert teacher.post_form("teacher/export", {}) == 200
        _, page = teacher.get("teacher")
        canvas_status, canvas = teacher.get("teacher/export/canvas.csv")
        moodle_status, moodle = teacher.get("teacher/export/moodle.csv")
        _, grades = teacher.get("teacher/export/grades.csv")
    assert "canvas.csv" in page.decode() and "moodle.csv" in page.decode()
    assert (canvas_status, moodle_status) == (200, 200)
    assert _rows(canvas) == [
        ["Student", "ID", "SIS User ID", "SIS Login ID", "Section", "Week 1"],
        ["Points Possible", "", "", "", "", "100"],
        ["Kim Minji", "", "S-1", "", "A", "80"],
        ["'" + HOSTILE, "", "S-2", "", "B", ""],  # may still submit, late: no grade yet, not a 0
    ]
    assert _rows(moodle) == [
        ["ID number", "Email address", "Username", "Week 1"],
        ["S-1", "kim@school.kr", "kim", "80"],
        ["S-2", "'-lee@school.kr", "lee", ""],
    ]
    header, kim, lee = _rows(grades)
    assert header == ["student", "name", "email", "sis_id", "section", "sum", "score", "max", "week1 points",
                      "week1 rule"]
    assert kim == ["kim", "Kim Minji", "kim@school.kr", "S-1", "A", "AC", "1", "1", "80", LATE_RULE]
    assert lee[:2] == ["lee", "'" + HOSTILE] and lee[-2:] == ["", ""]
