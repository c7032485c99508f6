"""The teacher's page and the polish of the students' (issue 41, item 6), over real HTTP against a real `judge serve`:
names beside ids and links to the problems; announcements edited and removed; an export during judging names the
grades it could not make final; the scoreboard's legend, no points column on a pass/fail contest, and the
teacher told that students see it frozen; samples the statement shows are not shown again; the submit form linked
from the top; "tried" beside "solved"; language names, not keys; `judge submit` with an unknown problem lists the
known ones."""

from __future__ import annotations

import re
import time
import urllib.parse
from pathlib import Path

import pytest
from conftest import judge_cli, write_problem
from http_session import CSRF_META, Session, signed_in
from serve_fixtures import AC_SOURCE, STUDENTS, WA_SOURCE, judging_stopped, running_server, wait_until_judged
from serve_http import Browser, basic

from judge.serve.roster import TEACHER_SECRET_FILE
from judge.serve.store import Store

KIM, LEE = STUDENTS
STATEMENT = "# A+B\n\nPrint the sum.\n\n## Sample input 1\n\n```\n1 2\n```\n\n## Sample output 1\n\n```\n3\n```\n"


def _problems(root: Path) -> None:
    tests = {"sample1": ("1 2\n", "3\n"), "sample2": ("4 4\n", "8\n"), "3": ("5 7\n", "12\n")}
    write_problem(root / "sum", tests, id="sum", title="A+B")
    (root / "sum" / "statement.md").write_text(STATEMENT, encoding="utf-8")
    write_problem(root / "product", {"1": ("2 3\n", "6\n")}, id="product", title="A*B")


def _submit(url: str, student: tuple[str, str, str], source: str, problem: str = "sum") -> None:
    answer = Browser(url).post_multipart("/api/submissions", {"problem": problem, "language": "python3",
                                                              "code": source}, basic(student[0], student[2]))
    assert answer.status == 201, answer.body


def _page(session: Session, path: str) -> str:
    status, body = session.get(path)
    assert status == 200, (path, status, body[:300])
    return body.decode("utf-8")


def _post(session: Session, path: str, fields: dict[str, str]) -> str:
    """The form as a browser sends it (its CSRF token from the page), and the page it is redirected to."""
    token = CSRF_META.search(_page(session, "teacher"))
    assert token
    body = urllib.parse.urlencode({"csrf": token.group(1), **fields}).encode()
    with session.opener.open(session.url + path, data=body, timeout=300) as response:
        assert "/teacher" in response.url, response.url  # sent back to the teacher's page
        return str(response.read().decode("utf-8"))


@pytest.mark.slow  # 3.9 s here: a server of its own (the default run keeps to ten minutes)
def test_the_teachers_page_and_the_students_pages_say_what_they_mean(tmp_path: Path) -> None:
    _problems(tmp_path / "problems")
    with running_server(tmp_path) as server:
        _submit(server.url, KIM, AC_SOURCE)
        _submit(server.url, LEE, WA_SOURCE)
        wait_until_judged(Store(server.data), 2)
        teacher = signed_in(server.url, "teacher", (server.data / TEACHER_SECRET_FILE).read_text().strip())
        kim = signed_in(server.url, KIM[0], KIM[2])
        lee = signed_in(server.url, LEE[0], LEE[2])

        page = _page(teacher, "teacher")
        assert "<td>kim (Kim Minji)</td>" in page and "<td>lee (Lee Jun)</td>" in page
        assert '<a href="/problems/sum">sum</a>: A+B' in page and '<a href="/problems/product">product</a>' in page
        assert "Python 3" in page and "python3</td>" not in page
        assert 'href="/">problems</a>' in page  # the teacher's way to the statements

        page = _post(teacher, "teacher/announce", {"text": "Problem sum: two integers."})
        (number,) = re.findall(r'action="/teacher/announcements/(\d+)"', page)
        page = _post(teacher, f"teacher/announcements/{number}", {"text": "Problem sum: two integers, one line.",
                                                                   "action": "save"})
        assert "two integers, one line." in _page(kim, "")
        _post(teacher, f"teacher/announcements/{number}", {"action": "remove"})
        assert "two integers" not in _page(kim, "") and "two integers" not in _page(teacher, "teacher")

        board = _page(kim, "scoreboard")
        assert "<th>points</th>" not in board and 'id="legend"' in board and "rejected" in board
        assert "frozen since" not in _page(teacher, "scoreboard")

        problem = _page(kim, "problems/sum")
        assert problem.count("<h3>sample") == 1 and "<h3>sample2</h3>" in problem  # sample1 is in the statement
        assert problem.index('href="#submit-form"') < problem.index('<article class="statement">')
        home = _page(lee, "")
        assert re.search(r'href="/problems/sum">sum</a></td><td>A\+B</td>\s*<td><span class="verdict v-WA">tried', home)
        mine = _page(kim, "submissions")
        assert "<td>Python 3</td>" in mine and "<td>python3</td>" not in mine
        assert "Python 3" in _page(kim, "submissions/1")

        with judging_stopped(server.process.pid):
            _post(teacher, "teacher/rejudge", {"target": "problem", "problem": "sum", "reason": "r"})
            page = _post(teacher, "teacher/export", {})
        assert re.search(r"exported, but 2 grade\(s\) wait for a judging under way .*: kim/sum, lee/sum;", page), page

        done = judge_cli("submit", server.url, "prodct", tmp_path / "problems" / "sum" / "tests" / "3.in",
                         "--user", KIM[0], "--password", KIM[2])
        assert done.returncode == 2 and "no problem 'prodct'; the problems are: product, sum" in done.stderr


def test_the_teacher_is_told_students_see_the_scoreboard_frozen(tmp_path: Path) -> None:
    _problems(tmp_path / "problems")
    with running_server(tmp_path) as server:
        teacher = signed_in(server.url, "teacher", (server.data / TEACHER_SECRET_FILE).read_text().strip())
        now = time.time()
        opens = time.strftime("%Y-%m-%dT%H:%M", time.gmtime(now - 3600))
        closes = time.strftime("%Y-%m-%dT%H:%M", time.gmtime(now + 1800))
        _post(teacher, "teacher/settings", {"start": opens, "end": closes, "zone": "UTC", "scoreboard": "shown",
                                            "freeze_minutes": "60"})
        board = _page(teacher, "scoreboard")
        assert 'id="frozen-for-students"' in board and "Students see this scoreboard frozen since" in board
        student_board = _page(signed_in(server.url, KIM[0], KIM[2]), "scoreboard")
        assert 'id="frozen-for-students"' not in student_board and "made since the freeze" in student_board
