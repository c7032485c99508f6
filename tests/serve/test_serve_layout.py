"""Every page of `judge serve` on a phone and a laptop (issue 41, item 2), in a real headless Chromium against a real
server: at 390 × 844 no page is wider than the screen (the document does not scroll sideways: a wide table scrolls
in its own box), and each test's message is on its own row under the test, as wide as the table. Each page is
photographed at both sizes (JUDGE_SCREENSHOTS=docs/serve keeps them: docs/serve/ holds the ones the docs show)."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest
from conftest import write_problem
from http_session import signed_in
from serve_fixtures import STUDENTS, headless_chromium, running_server, sign_in_page, wait_until_judged
from serve_http import Browser, basic

from judge.serve.roster import TEACHER_SECRET_FILE
from judge.serve.store import Store

PHONE = {"width": 390, "height": 844}
LAPTOP = {"width": 1366, "height": 768}
KIM, LEE = STUDENTS
STATEMENT = r"""# A+B

Read two integers $A$ and $B$ ($1 \le A, B \le 10^9$) and print $A + B$. In Python, `input().split()` reads both.

$$S = \sum_{i=1}^{2} x_i$$
"""
LONG_WRONG = "print('" + "x" * 400 + "')\n"
AC = "a, b = map(int, input().split())\nprint(a + b)\n"
STUDENT_PAGES = {"problems": "", "problem": "problems/sum", "my-submissions": "submissions",
                 "submission": "submissions/1", "scoreboard": "scoreboard", "refused": "problems/no-such-problem"}
TEACHER_PAGES = {"teacher": "teacher", "teacher-submission": "submissions/1"}



def _overflow(page: object) -> int:
    """How many pixels the document is wider than the window (0: it fits)."""
    return int(page.evaluate(  # type: ignore[attr-defined]
        "document.documentElement.scrollWidth - document.documentElement.clientWidth"))


@pytest.mark.slow  # 5-13 s in Chromium or of judging: CI runs it in the slow suite
def test_no_page_is_wider_than_a_phone_and_each_message_sits_under_its_test(tmp_path: Path) -> None:
    folder = Path(os.environ.get("JUDGE_SCREENSHOTS", tmp_path))
    folder.mkdir(parents=True, exist_ok=True)
    problem = write_problem(tmp_path / "problems" / "sum", {"sample1": ("1 2\n", "3\n"), "2": ("5 7\n", "12\n")},
                            id="sum", title="A+B")
    (problem / "statement.md").write_text(STATEMENT, encoding="utf-8")
    with running_server(tmp_path, "-j", "2") as server, headless_chromium() as browser:
        api = Browser(server.url)
        for user, source in ((KIM, LONG_WRONG), (LEE, AC)):
            answer = api.post_multipart("/api/submissions", {"problem": "sum", "language": "python3",
                                                             "code": source}, basic(user[0], user[2]))
            assert answer.status == 201, answer.body
        wait_until_judged(Store(server.data), 2)
        secret = (server.data / TEACHER_SECRET_FILE).read_text().strip()
        teacher = signed_in(server.url, "teacher", secret)  # a window and an announcement on every page
        now = time.time()
        teacher.post_form("teacher/settings", {"start": time.strftime("%Y-%m-%dT%H:%M", time.gmtime(now - 3600)),
                                               "end": time.strftime("%Y-%m-%dT%H:%M", time.gmtime(now + 5400)),
                                               "zone": "UTC", "scoreboard": "shown", "freeze_minutes": "0"})
        teacher.post_form("teacher/announce", {"text": "Problem sum: both integers are on one line."})
        asked = signed_in(server.url, KIM[0], KIM[2]).post_form("problems/sum/questions",  # a long unbroken word
                                                                  {"question": "Is " + "very" * 60 + " long fine?"})
        answered = teacher.post_form("teacher/clarifications/1", {"answer": "Yes: " + "x" * 240, "to": "everyone"})
        rejudged = teacher.post_form("teacher/rejudge", {"target": "problem", "problem": "sum",
                                                         "reason": "checking " + "y" * 180})
        assert (asked, answered, rejudged) == (200, 200, 200)
        wait_until_judged(Store(server.data), 2)  # the report on the teacher's page, every row judged again
        too_wide: dict[str, int] = {}
        for size_name, size in (("phone", PHONE), ("laptop", LAPTOP)):
            for who, password, pages in ((KIM[0], KIM[2], STUDENT_PAGES), ("teacher", secret, TEACHER_PAGES)):
                context = browser.new_context(viewport=size, timezone_id="Asia/Seoul")  # type: ignore[attr-defined]
                page = context.new_page()
                page.goto(server.url + "login")
                if who == KIM[0]:
                    page.screenshot(path=str(folder / f"serve-login-{size_name}.png"))
                    too_wide[f"login {size_name}"] = _overflow(page)
                sign_in_page(page, server.url, who, password)
                for name, path in pages.items():
                    page.goto(server.url + path)
                    too_wide[f"{name} {size_name}"] = _overflow(page)
                    page.screenshot(path=str(folder / f"serve-{name}-{size_name}.png"))
                    if name in ("submission", "teacher-submission"):
                        _message_under_its_test(page)
                context.close()
        assert {name: pixels for name, pixels in too_wide.items() if pixels > 0} == {}


def _message_under_its_test(page: object) -> None:
    """The sample's message is the row under the sample's, spanning the table, not a column beside it."""
    table = page.locator("#tests").bounding_box()  # type: ignore[attr-defined]
    message = page.locator("#tests tr.test-message td").first.bounding_box()  # type: ignore[attr-defined]
    assert message is not None and table is not None
    assert message["width"] >= 0.9 * table["width"], (message, table)
    assert "expected '3'" in page.locator("#tests tr.test-message").first.inner_text()  # type: ignore[attr-defined]


