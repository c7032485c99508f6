"""The teacher's pages in-process: filters, full feedback, rejudging, the contest settings, announcements, and the
exports (the gradebook and the similarity report `judge grade` and `judge similarity` write)."""

from __future__ import annotations

import csv
import io
import json
import re
from pathlib import Path

import pytest
from conftest import write_problem
from serve_fixtures import AC_SOURCE, WA_SOURCE, judged, make_context
from starlette.testclient import TestClient

from judge.serve.app import create_app
from judge.serve.service import ServeContext
from judge.serve.store import NewSubmission
from judge.verdicts import Verdict

TEACHER = ("teacher", "teacher-secret")


@pytest.fixture
def context(tmp_path: Path) -> ServeContext:
    return make_context(tmp_path)


@pytest.fixture
def teacher(context: ServeContext) -> tuple[TestClient, str]:
    """A client signed in as the teacher, and the session's CSRF token."""
    client = TestClient(create_app(context), base_url="http://127.0.0.1")
    token = re.search(r'name="csrf" value="([^"]+)"', client.get("/login").text).group(1)  # type: ignore[union-attr]
    assert client.post("/login", data={"csrf": token, "id": "teacher", "password": "teacher-secret"},
                       follow_redirects=False).headers["location"] == "/teacher"
    token = re.search(r'name="csrf-token" content="([^"]+)"', client.get("/teacher").text).group(1)  # type: ignore[union-attr]
    return client, token


def _add(context: ServeContext, student: str, source: str, verdict: Verdict | None, **details: str) -> int:
    submission_id = context.store.add_submission(NewSubmission(student, "sum", "python3", "sum.py",
                                                               source.encode()), 10)
    assert submission_id is not None
    if verdict is not None:
        judged(context.store, submission_id, verdict, **details)
    return submission_id


def test_the_teacher_sees_every_submission_filtered_with_its_full_feedback(teacher: tuple[TestClient, str],
                                                                           context: ServeContext) -> None:
    client, _ = teacher
    wrong = _add(context, "kim", WA_SOURCE, Verdict.WA, message="line 1: expected '12', got '0'", diff="-12\n+0")
    _add(context, "lee", AC_SOURCE, Verdict.AC)

    everything = client.get("/teacher").text
    only_wa = client.get("/teacher", params={"verdict": "WA"}).text
    only_lee = client.get("/teacher", params={"student": "lee"}).text
    hidden_test = client.get(f"/api/submissions/{wrong}", auth=TEACHER).json()["result"]["cases"][1]
    page = client.get(f"/submissions/{wrong}").text

    assert everything.count('href="/submissions/') == 2
    assert only_wa.count('href="/submissions/') == 1 and f'href="/submissions/{wrong}"' in only_wa
    assert only_lee.count('href="/submissions/') == 1 and f'href="/submissions/{wrong}"' not in only_lee
    assert hidden_test["message"] == "line 1: expected '12', got '0'" and hidden_test["diff"] == "-12\n+0"
    assert "print(0)" in page and "rejudge this submission" in page
    student_view = client.get(f"/api/submissions/{wrong}", auth=("kim", "kim-password")).json()["result"]["cases"][1]
    assert student_view["diff"] == "" and "hidden test" in student_view["message"]


def test_rejudging_a_submission_a_problem_or_everything_queues_them_again(teacher: tuple[TestClient, str],
                                                                          context: ServeContext) -> None:
    client, token = teacher
    first = _add(context, "kim", AC_SOURCE, Verdict.AC)
    _add(context, "lee", WA_SOURCE, Verdict.WA)

    one = client.post("/teacher/rejudge", data={"csrf": token, "target": "submission", "submission": str(first),
                                                   "reason": "a test was wrong"},
                      follow_redirects=False)
    assert one.status_code == 303 and context.store.counts() == {"queued": 1, "done": 1}
    assert "problems_epoch" in context.store.settings()  # the judging process reads the problems again
    client.post("/teacher/rejudge", data={"csrf": token, "target": "problem", "problem": "sum", "reason": "r"})
    assert context.store.counts() == {"queued": 2}
    refused = client.post("/teacher/rejudge", data={"target": "all", "reason": "r"})
    assert [step.status_code for step in refused.history] == [303] and "CSRF" in refused.text  # sent back
    assert context.store.counts() == {"queued": 2}


def test_the_teacher_reads_the_problems_again_and_students_see_the_change(teacher: tuple[TestClient, str],
                                                                          context: ServeContext) -> None:
    client, token = teacher
    student = TestClient(create_app(context), base_url="http://127.0.0.1")
    kim = ("kim", "kim-password")
    assert [problem["id"] for problem in student.get("/api/problems", auth=kim).json()] == ["sum"]
    assert "<strong>sum</strong>" in client.get("/problems/sum").text
    (context.problems_dir / "sum" / "statement.md").write_text("# A+B\n\nNow with *three* integers.\n")
    write_problem(context.problems_dir / "product", {"sample1": ("2 3\n", "6\n")}, id="product", title="A*B")

    read = client.post("/teacher/problems", data={"csrf": token}, follow_redirects=False)
    assert read.status_code == 303 and "2+problem(s)+read+again" in read.headers["location"]
    assert [problem["id"] for problem in student.get("/api/problems", auth=kim).json()] == ["product", "sum"]
    assert "<em>three</em>" in client.get("/problems/sum").text
    assert "problems_epoch" in context.store.settings()  # the judging process reads them again too

    (context.problems_dir / "product" / "problem.yaml").write_text("id: product\ntime_limit: [\n")
    broken = client.post("/teacher/problems", data={"csrf": token})
    assert [step.status_code for step in broken.history] == [303] and "the old ones stay" in broken.text and "problem.yaml" in broken.text
    assert set(context.problems) == {"product", "sum"}


def test_the_contest_window_and_announcements_reach_the_students(teacher: tuple[TestClient, str],
                                                                 context: ServeContext) -> None:
    client, token = teacher
    saved = client.post("/teacher/settings", data={"csrf": token, "start": "2000-01-01 10:00",
                                                   "end": "2000-01-01 12:00", "scoreboard": "shown",
                                                   "freeze_minutes": "30"}, follow_redirects=False)
    bad = client.post("/teacher/settings", data={"csrf": token, "start": "tomorrow", "freeze_minutes": "0"})
    client.post("/teacher/announce", data={"csrf": token, "text": "Problem sum: the input has two integers."})
    student = TestClient(create_app(context), base_url="http://127.0.0.1")
    refused = student.post("/api/submissions", auth=("kim", "kim-password"), data={"problem": "sum"},
                           files={"file": ("a.py", AC_SOURCE.encode())})

    assert saved.status_code == 303
    assert [step.status_code for step in bad.history] == [303] and "start: &#x27;tomorrow&#x27; is not a time; write YYYY-MM-DD HH:MM" in bad.text
    assert refused.status_code == 403
    assert refused.json()["error"] == "the contest closed at 2000-01-01 12:00 UTC; no more submissions are accepted"
    token = re.search(r'name="csrf" value="([^"]+)"', student.get("/login").text).group(1)  # type: ignore[union-attr]
    student.post("/login", data={"csrf": token, "id": "kim", "password": "kim-password"})
    assert "Problem sum: the input has two integers." in student.get("/").text
    assert student.get("/api/scoreboard").json()["frozen"] is True  # past the window's end: frozen for students


def test_the_export_writes_judge_grades_gradebook_and_the_similarity_report(teacher: tuple[TestClient, str],
                                                                            context: ServeContext) -> None:
    client, token = teacher
    _add(context, "kim", WA_SOURCE, Verdict.WA)
    _add(context, "kim", AC_SOURCE, Verdict.AC)
    _add(context, "kim", WA_SOURCE + "# later\n", Verdict.WA)  # the accepted one is still the graded one
    _add(context, "lee", AC_SOURCE + "# mine\n", Verdict.AC)
    _add(context, "lee", AC_SOURCE, None)  # still queued: not in the gradebook

    assert client.post("/teacher/export", data={"csrf": token}, follow_redirects=False).status_code == 303
    grades = list(csv.reader(io.StringIO(client.get("/teacher/export/grades.csv").content.decode("utf-8-sig"))))
    document = json.loads(client.get("/teacher/export/grades.json").text)
    similarity = client.get("/teacher/export/similarity.csv")

    assert grades[0] == ["student", "sum", "score", "max"]
    assert {row[0]: row[1:] for row in grades[1:]} == {"kim": ["AC", "1", "1"], "lee": ["AC", "1", "1"]}
    by_student = {row["name"]: row for row in document["students"]}
    assert by_student["kim"]["results"]["sum"]["verdict"] == "AC" and by_student["kim"]["score"] == 1
    assert by_student["lee"]["results"]["sum"]["verdict"] == "AC"
    assert similarity.status_code == 200 and "kim" in similarity.text and "lee" in similarity.text
    assert similarity.headers["content-disposition"].startswith("attachment")
    assert client.get("/teacher/export/serve.sqlite").status_code == 404  # only the export's own files
    assert client.get("/teacher/export/..%2fserve.sqlite").status_code == 404
