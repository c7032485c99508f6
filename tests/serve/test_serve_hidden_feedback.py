"""What a student reads of `judge serve` shows no hidden test (issue 39, items 2 and 16), over real HTTP against a
real server: the API's submission and list, the submission's page and the list's, the scoreboard, and `judge
submit`'s report. The program copies each hidden test's input to its stdout, its stderr, an exception's name and
its checker's words (tests/hidden_leak.py); the teacher's API keeps all of it. A JE a student reads names no
path of the server's: the judge's temporary folder, filled for real, is named to the teacher only."""

from __future__ import annotations

import base64
import http.cookiejar
import json
import os
import re
import urllib.parse
import urllib.request
from pathlib import Path

import pytest
from conftest import judge_cli, mounted_tmpfs, write_problem
from hidden_leak import HIDDEN_MODES, LEAKING_PROGRAM, PROBLEM_ID, SAMPLE_SECRET, leaked, secret, write_leak_problem
from serve_fixtures import STUDENTS, running_server, write_roster

from judge.judging.feedback import HIDDEN_JE_NOTICE, SERVER_PATH_SHOWN
from judge.serve.roster import TEACHER_SECRET_FILE

KIM = STUDENTS[0]


def _basic(auth: tuple[str, str]) -> dict[str, str]:
    return {"Authorization": "Basic " + base64.b64encode(f"{auth[0]}:{auth[1]}".encode()).decode()}


def _get_text(url: str, auth: tuple[str, str]) -> str:
    with urllib.request.urlopen(urllib.request.Request(url, headers=_basic(auth)), timeout=30) as response:
        return response.read().decode("utf-8")


def _signed_in_pages(url: str, user: str, password: str) -> urllib.request.OpenerDirector:
    """A browser's session: the sign-in form with its CSRF token, then the cookie."""
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))
    with opener.open(url + "login", timeout=30) as response:
        token = re.search(r'name="csrf" value="([^"]+)"', response.read().decode()).group(1)  # type: ignore[union-attr]
    form = urllib.parse.urlencode({"csrf": token, "id": user, "password": password}).encode()
    with opener.open(url + "login", data=form, timeout=30) as response:
        assert response.url.rstrip("/") == url.rstrip("/"), response.url  # signed in: sent to the home page
    return opener


def _page(opener: urllib.request.OpenerDirector, url: str) -> str:
    with opener.open(url, timeout=30) as response:
        return response.read().decode("utf-8")


def _submitted(server_url: str, source: Path) -> tuple[int, str]:
    """`judge submit` as kim: the submission's id, and everything it printed."""
    done = judge_cli("submit", server_url, PROBLEM_ID, source, "--user", KIM[0], "--password", KIM[2],
                     cwd=source.parent)
    assert done.returncode == 3, (done.stdout, done.stderr)  # JE on a test: the judge failed there
    submission_id = int(re.search(r"submitted as #(\d+)", done.stderr).group(1))  # type: ignore[union-attr]
    return submission_id, done.stdout + done.stderr


def test_a_student_reads_no_hidden_input_anywhere_and_the_teacher_reads_it_all(tmp_path: Path) -> None:
    write_leak_problem(tmp_path / "problems")
    write_roster(tmp_path / "roster.csv")
    source = tmp_path / "leak.py"
    source.write_text(LEAKING_PROGRAM, encoding="utf-8")
    with running_server(tmp_path) as server:
        submission_id, printed = _submitted(server.url, source)
        document = _get_text(f"{server.url}api/submissions/{submission_id}", (KIM[0], KIM[2]))
        seen = {
            "judge submit": printed,
            "the API's submission": document,
            "the API's list": _get_text(f"{server.url}api/submissions", (KIM[0], KIM[2])),
            "the API's scoreboard": _get_text(f"{server.url}api/scoreboard", (KIM[0], KIM[2])),
        }
        browser = _signed_in_pages(server.url, KIM[0], KIM[2])
        for page in ("", "submissions", f"submissions/{submission_id}", "scoreboard", f"problems/{PROBLEM_ID}"):
            seen[f"the page /{page}"] = _page(browser, server.url + page)
        teacher_secret = (server.data / TEACHER_SECRET_FILE).read_text(encoding="utf-8").strip()
        for_teacher = _get_text(f"{server.url}api/submissions/{submission_id}", ("teacher", teacher_secret))

    assert {where: found for where, text in seen.items() if (found := leaked(text))} == {}
    for where in ("judge submit", "the API's submission", f"the page /submissions/{submission_id}"):
        assert SAMPLE_SECRET in seen[where], where  # the sample in full: a leak there would be seen
    tests = json.loads(document)["result"]["cases"]
    assert [test["verdict"] for test in tests] == ["RE", "RE", "RE", "WA", "AC", "JE", "TLE", "MLE", "OLE"]
    assert [test["message"] for test in tests[1:3]] == ["non-zero exit code", "non-zero exit code: ValueError"]
    assert all(secret(mode) in for_teacher for mode in HIDDEN_MODES[:5]), for_teacher


LONG_OUTPUT_LIMIT = 64
"""MiB a run may write: more than the small TMPDIR holds, so every test's run is the judge's failure."""


@pytest.mark.skipif(os.geteuid() != 0, reason="mounting a tmpfs needs root")
def test_a_judge_error_names_the_servers_temporary_folder_to_the_teacher_only(tmp_path: Path,
                                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    write_problem(tmp_path / "problems" / "sum", {"sample1": ("1 2\n", "3\n"), "2": ("5 7\n", "12\n")}, id="sum",
                  output_limit=LONG_OUTPUT_LIMIT)
    write_roster(tmp_path / "roster.csv")
    source = tmp_path / "sum.py"
    source.write_text("a, b = map(int, input().split())\nprint(a + b)\n", encoding="utf-8")
    with mounted_tmpfs(tmp_path / "small", "36m") as small:
        monkeypatch.setenv("TMPDIR", str(small))  # the server's, and so its judging's
        with running_server(tmp_path) as server:
            done = judge_cli("submit", server.url, "sum", source, "--user", KIM[0], "--password", KIM[2])
            submission_id = int(re.search(r"submitted as #(\d+)", done.stderr).group(1))  # type: ignore[union-attr]
            url = f"{server.url}api/submissions/{submission_id}"
            student = json.loads(_get_text(url, (KIM[0], KIM[2])))
            page = _page(_signed_in_pages(server.url, KIM[0], KIM[2]), f"{server.url}submissions/{submission_id}")
            teacher_secret = (server.data / TEACHER_SECRET_FILE).read_text(encoding="utf-8").strip()
            teacher = json.loads(_get_text(url, ("teacher", teacher_secret)))

    assert done.returncode == 3, (done.stdout, done.stderr)
    assert [test["verdict"] for test in teacher["result"]["cases"]] == ["JE", "JE"], teacher
    assert teacher["result"]["cases"][0]["message"].startswith(f"the judge's temporary folder {small} is full: ")
    sample, hidden = student["result"]["cases"]
    assert sample["message"].startswith(f"the judge's temporary folder {SERVER_PATH_SHOWN} is full: "), sample
    assert hidden["message"] == HIDDEN_JE_NOTICE
    for where, text in (("API", json.dumps(student)), ("page", page), ("judge submit", done.stdout + done.stderr)):
        assert str(small) not in text and str(tmp_path) not in text, where
