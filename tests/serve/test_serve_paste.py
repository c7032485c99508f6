"""Pasting is safe (issue 41, item 3), over real HTTP against a real `judge serve`: every form is answered with a
redirect (303, so a reload sends nothing again), a refused submission's code comes back in the box with its
language, pasted code needs a language or takes the student's last one, and a refused sign-in or teacher's form
comes back with its line."""

from __future__ import annotations

import html
import re
from pathlib import Path

from http_session import CSRF_INPUT
from conftest import write_problem
from serve_fixtures import AC_SOURCE, STUDENTS, running_server
from serve_http import Answer, Browser

from judge.serve.roster import TEACHER_SECRET_FILE
from judge.serve.store import Store

KIM = STUDENTS[0]
BOX = re.compile(r'<textarea name="code" id="code"[^>]*>(.*?)</textarea>', re.S)


def _token(page: Answer) -> str:
    found = CSRF_INPUT.search(page.body)
    assert found, page.body[:300]
    return found.group(1)


def _paste(browser: Browser, code: str, language: str) -> Answer:
    token = _token(browser.get("/problems/sum"))
    return browser.post_multipart("/problems/sum", {"csrf": token, "code": code, "language": language})


def _box(page: Answer) -> str:
    found = BOX.search(page.body)
    assert found, page.body[:500]
    return html.unescape(found.group(1))


def _selected(page: Answer) -> list[str]:
    return re.findall(r'<option value="([^"]*)" selected>', page.body)


def test_pasted_code_needs_a_language_stays_in_the_box_and_a_reload_sends_nothing(tmp_path: Path) -> None:
    tests = {"sample1": ("1 2\n", "3\n"), "2": ("5 7\n", "12\n")}
    write_problem(tmp_path / "problems" / "sum", tests, id="sum", title="A+B", source_limit=1)
    write_problem(tmp_path / "problems" / "big", tests, id="big", title="A+B", source_limit=64)
    with running_server(tmp_path) as server:
        kim = Browser(server.url)
        assert kim.sign_in(KIM[0], KIM[2]).status == 303
        assert _selected(kim.get("/problems/sum")) == []  # no language before the first submission

        refused = _paste(kim, AC_SOURCE, "")
        assert (refused.status, refused.header("location")) == (303, "/problems/sum")
        back = kim.get("/problems/sum")
        assert "choose the language of your code" in back.body and _box(back) == AC_SOURCE
        assert kim.get("/problems/sum").body.count("choose the language of your code") == 0  # shown once
        assert Store(server.data).submissions() == []

        too_big = "# " + "x" * 2_000 + "\n" + AC_SOURCE  # over this problem's 1 KiB
        refused = _paste(kim, too_big, "pypy3")
        assert refused.status == 303
        back = kim.get("/problems/sum")
        assert "accepts at most" in back.body and _box(back) == too_big and _selected(back) == ["pypy3"]

        accepted = _paste(kim, AC_SOURCE, "python3")
        assert accepted.status == 303 and re.fullmatch(r"/submissions/\d+", accepted.header("location"))
        assert _selected(kim.get("/problems/sum")) == ["python3"]  # the last language is the default
        again = _paste(kim, AC_SOURCE, "")  # a form sent without one takes it too
        assert again.status == 303 and again.header("location").startswith("/submissions/")
        assert [row.language for row in Store(server.data).submissions()] == ["python3", "python3"]


def test_a_refused_sign_in_and_a_refused_teachers_form_redirect_with_their_line(tmp_path: Path) -> None:
    with running_server(tmp_path) as server:
        stranger = Browser(server.url)
        refused = stranger.sign_in(KIM[0], "wrong")
        assert (refused.status, refused.header("location")) == (303, "/login")
        back = stranger.get("/login")
        assert "wrong id or password" in back.body and f'value="{KIM[0]}"' in back.body

        teacher = Browser(server.url)
        assert teacher.sign_in("teacher", (server.data / TEACHER_SECRET_FILE).read_text().strip()).status == 303
        token = _token(teacher.get("/teacher"))
        refused = teacher.post_form("/teacher/rejudge", {"csrf": token, "target": "nothing", "reason": "r"})
        assert (refused.status, refused.header("location")) == (303, "/teacher")
        assert "rejudge what?" in teacher.get("/teacher").body
        refused = teacher.post_form("/teacher/announce", {"csrf": "forged", "text": "hello"})
        assert refused.status == 303 and "this form expired" in teacher.get("/teacher").body
