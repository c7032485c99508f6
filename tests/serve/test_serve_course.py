"""A course over real HTTP against a real `judge serve` (issue 42, "Assignments and time"): a late submission under
each policy (refused, reduced within the hard deadline, refused past it), an assignment not open yet, an extension
letting one student submit while another is refused (from extensions.csv and from the teacher's page), the states
and countdowns on the students' pages, and the scoreboard's late solve. Deadlines are set relative to now (due a
day and a half ago with a three-day late window), so nothing sleeps through one."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import time
from datetime import UTC, datetime
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest
from conftest import write_problem
from serve_fixtures import (
    AC_SOURCE,
    STUDENTS,
    headless_chromium,
    judge_env,
    running_server,
    sign_in_page,
    wait_until_judged,
    write_problems,
    write_roster,
)
from serve_http import Browser, basic

from judge.course.late_policy import DAY, closed_line
from judge.course.times import shown_time
from judge.serve.roster import TEACHER_SECRET_FILE
from judge.serve.store import Store

KIM, LEE = STUDENTS
NEW_YORK = ZoneInfo("America/New_York")
MINUTE = int(time.time()) // 60 * 60
"""Every time of the course is a whole minute (assignments.yaml's times are), so the test knows them exactly."""
STRICT_DUE = MINUTE - DAY
LATE_DUE = MINUTE - DAY - DAY // 2
SHORT_DUE = MINUTE - 2 * DAY
LATER_OPENS = MINUTE + DAY
KIM_DUE = MINUTE + DAY


def local(moment: float) -> str:
    return datetime.fromtimestamp(moment, UTC).strftime("%Y-%m-%d %H:%M")


def write_course(root: Path) -> None:
    """PROBLEMS with `sum` (due a day ago, late refused), `late` (due 1.5 days ago, 10 % a day for 3 days),
    `gone` (due 2 days ago, 1 late day: closed), `future` (opens tomorrow) and `free` (in no assignment); kim's
    extension for `sum` in extensions.csv beside the roster."""
    write_problems(root / "problems")
    for problem in ("late", "gone", "future", "free"):
        write_problem(root / "problems" / problem, {"1": ("1 2\n", "3\n")}, id=problem, title=problem.title())
    (root / "problems" / "assignments.yaml").write_text(
        f"""zone: UTC
assignments:
  - {{id: strict, title: Strict, problems: [sum], due: {local(STRICT_DUE)}, late: refuse}}
  - id: tenpercent
    title: Ten percent
    problems: [late]
    due: {local(LATE_DUE)}
    late: {{percent_per_day: 10, max_days: 3}}
  - {{id: short, title: Short, problems: [gone], due: {local(SHORT_DUE)}, late: {{percent_per_day: 10, max_days: 1}}}}
  - {{id: later, title: Later, problems: [future], opens: {local(LATER_OPENS)}, due: {local(LATER_OPENS + 7 * DAY)}}}
""",
        encoding="utf-8",
    )
    write_roster(root / "roster.csv")
    (root / "extensions.csv").write_text(f"student,assignment,due\nkim,strict,{local(KIM_DUE)}\n", encoding="utf-8")


def submit(server_url: str, student: tuple[str, str, str], problem: str) -> tuple[int, dict[str, object]]:
    answer = Browser(server_url).post_multipart(
        "/api/submissions", {"problem": problem, "code": AC_SOURCE, "language": "python3"}, basic(student[0], student[2])
    )
    return answer.status, json.loads(answer.body)


def page(server_url: str, student: tuple[str, str, str], path: str) -> str:
    browser = Browser(server_url)
    assert browser.sign_in(student[0], student[2]).status == 303
    answer = browser.get(path)
    assert answer.status == 200, answer.body[:300]
    return answer.body


def phase(body: str, assignment: str) -> str:
    found = re.search(rf'<li id="assignment-{assignment}">.*?data-phase="([^"]+)"', body, re.S)
    assert found, body
    return found.group(1)


@pytest.mark.slow
def test_each_late_policy_and_an_extension_over_http(tmp_path: Path) -> None:
    write_course(tmp_path)
    with running_server(tmp_path) as server:
        url = server.url.rstrip("/")
        assert submit(url, LEE, "sum") == (403, {"error": closed_line(STRICT_DUE)})  # refuse: closed at the due
        assert submit(url, KIM, "sum")[0] == 201  # kim's extension (extensions.csv) keeps it open for her
        assert submit(url, LEE, "late")[0] == 201  # within the hard deadline: accepted, with reduced credit
        assert submit(url, LEE, "gone") == (403, {"error": closed_line(SHORT_DUE + DAY)})  # past the hard deadline
        assert submit(url, LEE, "future") == (
            403,
            {"error": f"assignment 'Later' opens at {shown_time(LATER_OPENS)}; submit then"},
        )
        assert submit(url, LEE, "free")[0] == 201  # in no assignment: the contest window (none) decides
        store = Store(server.data)
        assert sorted((row.student, row.problem_id) for row in store.submissions()) == [
            ("kim", "sum"), ("lee", "free"), ("lee", "late")
        ]

        lee_home = page(url, LEE, "/")
        assert [phase(lee_home, each) for each in ("strict", "tenpercent", "short", "later")] == [
            "closed", "late", "closed", "not open yet"
        ]
        assert "late: 2 days late: 80 % (10 % a day, at most 3 days) until" in lee_home
        assert f'<time datetime="{datetime.fromtimestamp(LATE_DUE + 3 * DAY, UTC):%Y-%m-%dT%H:%M:%SZ}">' in lee_home
        assert re.search(r'not open yet: opens <time datetime="[^"]+">[^<]+</time> \(<span class="countdown" '
                         r'data-until="\d+">in \d+ (d|h) ', lee_home)
        assert "your extension" not in lee_home
        kim_home = page(url, KIM, "/")
        assert phase(kim_home, "strict") == "open"
        assert re.search(r'open, due <span class="countdown" data-until="%d">in (1 d 0 h|23 h \d\d min)</span>'
                         % KIM_DUE, kim_home)
        assert "your extension: due" in kim_home
        problem_page = page(url, LEE, "/problems/late")
        assert re.search(r'id="assignment-state">assignment Ten percent: <span class="assignment-state" '
                         r'data-phase="late">late: 2 days late: 80 %', problem_page)

        wait_until_judged(store, 3)
        board = json.loads(Browser(url).get("/api/scoreboard", basic(LEE[0], LEE[2])).body)
        lee_row = next(row for row in board["rows"] if row["student"] == "lee")
        assert lee_row["solved"] == 2  # a late solve is a solve on the pass/fail board ...
        assert lee_row["cells"]["late"]["late"] == "late 80 %"  # ... marked with its credit
        assert lee_row["cells"]["free"]["late"] == ""
        kim_row = next(row for row in board["rows"] if row["student"] == "kim")
        assert kim_row["cells"]["sum"]["solved"] and kim_row["cells"]["sum"]["late"] == ""


@pytest.mark.slow
def test_the_teacher_grants_and_removes_an_extension_on_the_page(tmp_path: Path) -> None:
    write_course(tmp_path)
    (tmp_path / "extensions.csv").unlink()
    with running_server(tmp_path) as server:
        url = server.url.rstrip("/")
        teacher = Browser(url)
        assert teacher.sign_in("teacher", (server.data / TEACHER_SECRET_FILE).read_text().strip()).status == 303
        csrf = teacher.get("/teacher").meta_csrf()
        grant = {"student": "lee", "assignment": "strict", "due": local(MINUTE + 2 * DAY).replace(" ", "T")}

        forged = teacher.post_form("/teacher/extensions", grant)  # no CSRF token: sent back, nothing granted
        assert forged.status == 303 and "this form expired" in teacher.get(forged.header("location")).body
        assert Store(server.data).extensions() == ()
        refused = teacher.post_form("/teacher/extensions", {**grant, "csrf": csrf, "due": local(STRICT_DUE - 60)})
        assert refused.status == 303
        assert "no extension granted: due: " in teacher.get(refused.header("location")).body
        assert submit(url, LEE, "sum")[0] == 403

        answer = teacher.post_form("/teacher/extensions", {**grant, "csrf": csrf})
        assert (answer.status, answer.header("location")) == (303, "/teacher?message=extension+granted#course")
        listed = teacher.get("/teacher").body
        assert re.search(r'<table class="list" id="extensions">.*<td>lee</td><td>strict</td>', listed, re.S)
        assert submit(url, LEE, "sum")[0] == 201  # lee's extension, granted on the page
        assert submit(url, KIM, "sum")[0] == 403  # kim has none
        assert "your extension: due" in page(url, LEE, "/problems/sum")

        removed = teacher.post_form("/teacher/extensions/remove", {"csrf": csrf, "student": "lee", "assignment": "strict"})
        assert removed.status == 303
        assert submit(url, LEE, "sum") == (403, {"error": closed_line(STRICT_DUE)})


@pytest.mark.slow  # 3.8 s here: a server of its own (the default run keeps to ten minutes)
def test_a_malformed_assignments_file_is_one_line_at_start_and_on_reading_again(tmp_path: Path) -> None:
    write_course(tmp_path)
    course_file = tmp_path / "problems" / "assignments.yaml"
    good = course_file.read_text()
    course_file.write_text(good.replace("problems: [late]", "problems: [sum]"))
    done = subprocess.run(
        [sys.executable, "-m", "judge", "serve", str(tmp_path / "problems"), "--roster", str(tmp_path / "roster.csv"),
         "--data", str(tmp_path / "data"), "--port", "0"],
        capture_output=True, text=True, env=judge_env(), timeout=120,
    )
    assert done.returncode == 2
    assert done.stderr.strip() == (
        f"judge: {course_file}: assignments.1.problems: 'sum' is already in assignment 'strict'; "
        "a problem belongs to at most one assignment"
    )

    course_file.write_text(good)
    with running_server(tmp_path) as server:
        url = server.url.rstrip("/")
        teacher = Browser(url)
        assert teacher.sign_in("teacher", (server.data / TEACHER_SECRET_FILE).read_text().strip()).status == 303
        csrf = teacher.get("/teacher").meta_csrf()
        course_file.write_text(good.replace("late: refuse", "late: never"))
        answer = teacher.post_form("/teacher/problems", {"csrf": csrf})
        assert answer.status == 303
        assert "the problems were not read again (the old ones stay): " in teacher.get(answer.header("location")).body
        assert submit(url, KIM, "sum")[0] == 201  # the course read at start still holds, with kim's extension


@pytest.mark.slow  # 5-13 s in Chromium or of judging: CI runs it in the slow suite
def test_in_chromium_a_student_sees_the_states_in_local_time_and_their_extension(tmp_path: Path) -> None:
    write_course(tmp_path)
    with running_server(tmp_path) as server, headless_chromium() as browser:
        kim = browser.new_context(timezone_id="America/New_York", locale="en-US").new_page()  # type: ignore[attr-defined]
        sign_in_page(kim, server.url, KIM[0], KIM[2])
        strict = kim.locator("#assignment-strict")
        assert strict.locator("[data-phase]").get_attribute("data-phase") == "open"
        assert re.fullmatch(r"in (1 d 0 h|23 h \d\d min)", strict.locator(".countdown").inner_text())
        shown = [each.replace("\u202f", " ") for each in strict.locator("time").all_inner_texts()]
        assert shown == [datetime.fromtimestamp(moment, NEW_YORK).strftime("%m/%d/%Y, %I:%M %p")
                         for moment in (KIM_DUE, KIM_DUE, STRICT_DUE)]  # due, then the extension's line
        assert "your extension: due" in strict.locator(".extension").inner_text()
        kim.goto(server.url + "problems/sum")
        assert "your extension: due" in kim.locator("#assignment-state").inner_text()

        lee = browser.new_context(timezone_id="Asia/Seoul", locale="en-US").new_page()  # type: ignore[attr-defined]
        sign_in_page(lee, server.url, LEE[0], LEE[2])
        assert lee.locator("#assignment-strict").inner_text().startswith("Strict (sum): closed at ")
        assert lee.locator("#assignment-strict .extension").count() == 0
        late = lee.locator("#assignment-tenpercent").inner_text()
        assert "late: 2 days late: 80 % (10 % a day, at most 3 days) until" in late
        assert re.search(r"\(in 1 d \d+ h\)$", late)  # counting down to the hard deadline, 1.5 days away
