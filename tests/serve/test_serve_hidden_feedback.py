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


def _submitted(server_url: str, source: Path, student: tuple[str, str, str] = KIM,
               problem: str = PROBLEM_ID) -> tuple[int, str, int]:
    """`judge submit` as `student`: the submission's id, everything it printed, and its exit status."""
    done = judge_cli("submit", server_url, problem, source, "--user", student[0], "--password", student[2],
                     cwd=source.parent)
    found = re.search(r"submitted as #(\d+)", done.stderr)
    assert found, (done.stdout, done.stderr)
    return int(found.group(1)), done.stdout + done.stderr, done.returncode


AIMED = """\
import io
import sys

data = sys.stdin.read()
mode, token = data.split()
if (token[:6], mode) != AIM:  # right on every other test, so the judging, stopping at the first failure, reaches AIM
    print("samplesanswer" if token.startswith("sample") else token.replace("secret", "answer"))
    raise SystemExit
sys.stdin = io.StringIO(data)
"""
"""The leaking program (LEAKING_PROGRAM), aimed at one test, named by its kind (`sample` or `hidden`) and mode, not
by its secret, which the source, shown to its author, must not hold: `judge serve` judges in BOJ's order, stopping
at the first test not accepted, so each hidden test's attack is a submission of its own."""


def _aimed_at(kind: str, mode: str) -> str:
    return f"AIM = {(kind, mode)!r}\n" + AIMED + LEAKING_PROGRAM


@pytest.mark.slow  # 10.7 s here: a server of its own (the default run keeps to ten minutes)
def test_a_student_reads_no_hidden_input_anywhere_and_the_teacher_reads_it_all(tmp_path: Path) -> None:
    write_leak_problem(tmp_path / "problems")
    write_roster(tmp_path / "roster.csv")
    aims = (("sample", "raise"), *(("hidden", mode) for mode in HIDDEN_MODES))
    owners = [STUDENTS[number % 2] for number in range(len(aims))]  # two students: at most 6 a minute each
    for number, aim in enumerate(aims):
        (tmp_path / f"leak{number}.py").write_text(_aimed_at(*aim), encoding="utf-8")
    with running_server(tmp_path) as server:
        submitted = [_submitted(server.url, tmp_path / f"leak{number}.py", owner)
                     for number, owner in enumerate(owners)]
        ids = [submission_id for submission_id, _, _ in submitted]
        documents = [_get_text(f"{server.url}api/submissions/{submission_id}", (owner[0], owner[2]))
                     for submission_id, owner in zip(ids, owners, strict=True)]
        seen: dict[str, str] = {}
        for student in STUDENTS:
            seen[f"{student[0]}: the API's list"] = _get_text(f"{server.url}api/submissions", (student[0], student[2]))
            seen[f"{student[0]}: the API's scoreboard"] = _get_text(f"{server.url}api/scoreboard",
                                                                    (student[0], student[2]))
            browser = _signed_in_pages(server.url, student[0], student[2])
            for page in ("", "submissions", "scoreboard", f"problems/{PROBLEM_ID}"):
                seen[f"{student[0]}: the page /{page}"] = _page(browser, server.url + page)
            for submission_id, owner in zip(ids, owners, strict=True):
                if owner == student:
                    seen[f"the page of #{submission_id}"] = _page(browser, f"{server.url}submissions/{submission_id}")
        for submission_id, (_, printed, _), document in zip(ids, submitted, documents, strict=True):
            seen[f"judge submit #{submission_id}"] = printed
            seen[f"the API's #{submission_id}"] = document
        teacher_secret = (server.data / TEACHER_SECRET_FILE).read_text(encoding="utf-8").strip()
        for_teacher = [_get_text(f"{server.url}api/submissions/{submission_id}", ("teacher", teacher_secret))
                       for submission_id in ids]

    assert {where: found for where, text in seen.items() if (found := leaked(text))} == {}
    for where in ("judge submit #", "the API's #", "the page of #"):
        assert SAMPLE_SECRET in seen[f"{where}{ids[0]}"], where  # the sample in full: a leak there would be seen
    aimed = []  # each submission's row of the test it aimed at, after as many accepted ones
    for number, document in enumerate(documents):
        cases = json.loads(document)["result"]["cases"]
        assert [case["verdict"] for case in cases[:number]] == ["AC"] * number, cases
        aimed.append(cases[number])
    assert [test["verdict"] for test in aimed] == ["RE", "RE", "RE", "WA", "AC", "JE", "TLE", "MLE", "OLE"]
    assert [test["message"] for test in aimed[1:3]] == ["non-zero exit code", "non-zero exit code: ValueError"]
    assert [code for _, _, code in submitted] == [1, 1, 1, 1, 0, 3, 1, 1, 1]  # as `judge run` exits
    assert all(secret(mode) in for_teacher[number] for number, mode in enumerate(HIDDEN_MODES[:5], 1)), for_teacher


LONG_OUTPUT_LIMIT = 64
"""MiB a run may write: more than the small TMPDIR holds, so every test's run is the judge's failure."""


@pytest.mark.slow  # 4.3 s here: a server of its own (the default run keeps to ten minutes)
@pytest.mark.skipif(os.geteuid() != 0, reason="mounting a tmpfs needs root")
def test_a_judge_error_names_the_servers_temporary_folder_to_the_teacher_only(tmp_path: Path,
                                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    # BOJ's order stops at the first JE: `sum` fails on its sample, `hidden` (no sample) on a hidden test
    write_problem(tmp_path / "problems" / "sum", {"sample1": ("1 2\n", "3\n"), "2": ("5 7\n", "12\n")}, id="sum",
                  output_limit=LONG_OUTPUT_LIMIT)
    write_problem(tmp_path / "problems" / "hidden", {"1": ("1 2\n", "3\n"), "2": ("5 7\n", "12\n")}, id="hidden",
                  output_limit=LONG_OUTPUT_LIMIT)
    write_roster(tmp_path / "roster.csv")
    source = tmp_path / "sum.py"
    source.write_text("a, b = map(int, input().split())\nprint(a + b)\n", encoding="utf-8")
    students, teachers, seen = [], [], []
    with mounted_tmpfs(tmp_path / "small", "36m") as small:
        monkeypatch.setenv("TMPDIR", str(small))  # the server's, and so its judging's
        with running_server(tmp_path) as server:
            browser = _signed_in_pages(server.url, KIM[0], KIM[2])
            teacher_secret = (server.data / TEACHER_SECRET_FILE).read_text(encoding="utf-8").strip()
            for problem in ("sum", "hidden"):
                submission_id, printed, code = _submitted(server.url, source, problem=problem)
                assert code == 3, printed
                url = f"{server.url}api/submissions/{submission_id}"
                students.append(json.loads(_get_text(url, (KIM[0], KIM[2]))))
                teachers.append(json.loads(_get_text(url, ("teacher", teacher_secret))))
                page = _page(browser, f"{server.url}submissions/{submission_id}")
                seen += [("API", json.dumps(students[-1])), ("page", page), ("judge submit", printed)]

    for teacher in teachers:
        (case,) = teacher["result"]["cases"]
        assert case["verdict"] == "JE" and case["message"].startswith(f"the judge's temporary folder {small} is full: ")
    (sample,), (hidden,) = (student["result"]["cases"] for student in students)
    assert sample["message"].startswith(f"the judge's temporary folder {SERVER_PATH_SHOWN} is full: "), sample
    assert hidden["message"] == HIDDEN_JE_NOTICE
    for where, text in seen:
        assert str(small) not in text and str(tmp_path) not in text, where
