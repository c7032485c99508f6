"""Feedback written for a browser (issue 41, item 1), over real HTTP against a real `judge serve`: no page shows a
command-line flag; a runtime error repeated on every test is shown once; a TLE at the wall backstop with CPU time
to spare says what that usually means, and only a TLE that ran out of CPU time suggests PyPy; the tests a judging
did not run (it stopped at the first failure, as BOJ does) are shown as not run."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from conftest import write_problem
from http_session import Session, signed_in
from serve_fixtures import STUDENTS, headless_chromium, running_server, wait_until_judged, write_roster
from serve_http import Browser, basic

from judge.judging.results import CaseResult, SubmissionResult
from judge.batch.tasks import SubmissionOutcome
from judge.runner.limits import Limits
from judge.serve.roster import TEACHER_SECRET_FILE
from judge.serve.store import NewSubmission, Store
from judge.verdicts import Verdict

KIM = STUDENTS[0]
TESTS = {"sample1": ("1 2\n", "3\n"), "2": ("5 7\n", "12\n"), "3": ("2 2\n", "4\n")}
CRASH = "a, b = map(int, input().split())\nprint(a // 0)\n"
SLEEPER = "import time\ntime.sleep(60)\n"
SPINNER = "while True:\n    pass\n"
A_FLAG = re.compile(r"(?<![\w-])--[a-z]")


def _problems(root: Path) -> None:
    write_problem(root / "sum", TESTS, id="sum", title="A+B", time_limit=0.3, language_allowance=False)


def _submit(browser: Browser, source: str) -> int:
    answer = browser.post_multipart("/api/submissions", {"problem": "sum", "language": "python3", "code": source},
                                    basic(KIM[0], KIM[2]))
    assert answer.status == 201, answer.body
    return int(re.search(r'"id":\s*(\d+)', answer.body).group(1))  # type: ignore[union-attr]


def _text(session: Session, path: str) -> str:
    status, body = session.get(path)
    assert status == 200, body[:300]
    return body.decode("utf-8")


@pytest.mark.slow
def test_pages_show_no_flag_a_repeated_error_once_and_the_right_time_hint(tmp_path: Path) -> None:
    _problems(tmp_path / "problems")
    write_roster(tmp_path / "roster.csv")
    with running_server(tmp_path, "-j", "2") as server:
        api = Browser(server.url)
        crash, sleeper, spinner = _submit(api, CRASH), _submit(api, SLEEPER), _submit(api, SPINNER)
        wait_until_judged(Store(server.data), 3)
        kim = signed_in(server.url, KIM[0], KIM[2])
        teacher = signed_in(server.url, "teacher", (server.data / TEACHER_SECRET_FILE).read_text().strip())
        pages = {(who, number): _text(session, f"submissions/{number}")
                 for who, session in (("kim", kim), ("teacher", teacher)) for number in (crash, sleeper, spinner)}

    for (who, number), page in pages.items():
        assert not A_FLAG.search(page), (who, number, A_FLAG.findall(page))
    # BOJ's order: the crash on the sample ends the judging; its traceback once, the hidden tests not run
    for who in ("kim", "teacher"):
        assert pages[who, crash].count("ZeroDivisionError: integer division") == 1
        assert pages[who, crash].count('<td colspan="4">not run</td>') == 2
    for who in ("kim", "teacher"):
        assert "waited for input that never comes" in pages[who, sleeper]
        assert "PyPy" not in pages[who, sleeper]
        assert "waited for input" not in pages[who, spinner]
        if shutil.which("pypy3"):
            assert "submit it as PyPy 3 (pypy3)" in pages[who, spinner]


@pytest.mark.slow
def test_the_tests_after_the_first_failure_are_shown_as_not_run(tmp_path: Path) -> None:
    """A result that stopped at test 2 of 3 (as the judging process stores a pass/fail problem's WA): the page
    lists test 3 as not run, without a script and with it."""
    _problems(tmp_path / "problems")
    write_roster(tmp_path / "roster.csv")
    with running_server(tmp_path):
        pass  # the data folder, its roster and its teacher's secret, as a first start makes them
    store = Store(tmp_path / "data")
    number = store.add_submission(NewSubmission("kim", "sum", "python3", "a.py", b"print(3)\n"), 5)
    assert number is not None
    (claimed,) = store.claim([number], "test-claim")
    cases = (CaseResult("sample1", Verdict.AC, 0.01, 0.02, 3.0, is_sample=True),
             CaseResult("2", Verdict.WA, 0.01, 0.02, 3.0, message="line 1: expected '12', got '3'"))
    result = SubmissionResult(problem_id="sum", submission="a.py", language="Python 3", limits=Limits(1, 3, 256, 1),
                              isolation="bwrap", memory_enforcement="cgroup", verdict=Verdict.WA, cases=cases)
    assert store.finish(number, claimed.token, SubmissionOutcome(Verdict.WA, 1, result, "", "test"))
    repeated = _stored_with_one_error_on_every_test(store)
    with running_server(tmp_path) as server:
        page = _text(signed_in(server.url, KIM[0], KIM[2]), f"submissions/{number}")
        assert re.search(r'<tr class="not-run"><td>3</td><td colspan="4">not run</td></tr>', page), page
        teacher = signed_in(server.url, "teacher", (server.data / TEACHER_SECRET_FILE).read_text().strip())
        every_test = _text(teacher, f"submissions/{repeated}")
        assert every_test.count("ZeroDivisionError: integer division") == 1, every_test
        assert every_test.count("as test sample1") == 2
        _browser_draws_not_run(server.url, number)


def _stored_with_one_error_on_every_test(store: Store) -> int:
    """A result whose three tests failed with the same traceback (a scored problem runs them all; so does a
    rejudge by `judge grade`'s rules): the page shows it once, then "as test sample1"."""
    number = store.add_submission(NewSubmission("kim", "sum", "python3", "b.py", CRASH.encode()), 5)
    assert number is not None
    (claimed,) = store.claim([number], "test-claim")
    traceback = "ZeroDivisionError: integer division or modulo by zero"
    cases = tuple(CaseResult(name, Verdict.RE, 0.01, 0.02, 3.0, message=traceback, is_sample=name == "sample1")
                  for name in TESTS)
    result = SubmissionResult(problem_id="sum", submission="b.py", language="Python 3", limits=Limits(1, 3, 256, 1),
                              isolation="bwrap", memory_enforcement="cgroup", verdict=Verdict.RE, cases=cases)
    assert store.finish(number, claimed.token, SubmissionOutcome(Verdict.RE, 0, result, "", "test"))
    return number


def _browser_draws_not_run(url: str, number: int) -> None:
    """The page as a browser that opened it while the submission was judged: its script draws the rows."""
    with headless_chromium() as browser:
        page = browser.new_page()  # type: ignore[attr-defined]
        page.goto(url + "login")
        page.fill("#id", KIM[0])
        page.fill("#password", KIM[2])
        page.click("#sign-in")
        page.wait_for_url(url)

        def while_judged(route: object) -> None:
            served = route.fetch()  # type: ignore[attr-defined]
            html = served.text().replace('data-status="done"', 'data-status="judging"')
            html = re.sub(r"<tbody>.*?</tbody>", "<tbody></tbody>", html, flags=re.S)
            route.fulfill(response=served, body=html)  # type: ignore[attr-defined]

        page.route(url + f"submissions/{number}", while_judged)
        page.goto(url + f"submissions/{number}")
        expect = pytest.importorskip("playwright.sync_api").expect
        expect(page.locator("#tests tbody tr.not-run")).to_have_text(re.compile(r"^3\s*not run$"))
        assert page.locator("#tests tbody tr:not(.test-message)").count() == 3
