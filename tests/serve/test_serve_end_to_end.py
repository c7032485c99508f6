"""`judge serve` and `judge submit` as a teacher and students run them: real processes over loopback, the same
rows as `judge run --feedback boj`, one line for each refusal, and nothing lost when the server is SIGKILLed."""

from __future__ import annotations

import base64
import json
import os
import re
import shutil
import signal
import ssl
import subprocess
import time
import urllib.request
from pathlib import Path

import psutil
import pytest
from conftest import assert_usage_error, judge_cli
from serve_fixtures import (
    AC_SOURCE,
    STUDENTS,
    WA_SOURCE,
    running_server,
    start_server,
    wait_for_url,
    wait_until_judged,
    write_problems,
    write_roster,
)

from judge.serve.store import Store

GONE_SECONDS = 30.0


def _submit_cli(url: str, problem: str, source: Path, student: tuple[str, str, str]) -> subprocess.CompletedProcess[str]:
    return judge_cli("submit", url, problem, source, "--user", student[0], "--password", student[2], cwd=source.parent)


def _without_timings(text: str) -> str:
    """A text report with its measured numbers blanked (they differ from run to run)."""
    return re.sub(r"\b\d+\.\d+\b", "#", text)


@pytest.mark.slow
def test_judge_submit_prints_judge_runs_rows_and_exits_as_judge_run(tmp_path: Path) -> None:
    (tmp_path / "ac.py").write_text(AC_SOURCE, encoding="utf-8")
    (tmp_path / "wa.py").write_text(WA_SOURCE, encoding="utf-8")
    (tmp_path / "hidden_wa.py").write_text("print(3)\n", encoding="utf-8")  # right on the sample only
    with running_server(tmp_path, "-j", "2") as server:
        accepted = _submit_cli(server.url, "sum", tmp_path / "ac.py", STUDENTS[0])
        wrong = _submit_cli(server.url, "sum", tmp_path / "wa.py", STUDENTS[1])
        wrong_on_hidden = _submit_cli(server.url, "sum", tmp_path / "hidden_wa.py", STUDENTS[0])
        unknown = _submit_cli(server.url, "nope", tmp_path / "ac.py", STUDENTS[1])
        bad_password = judge_cli("submit", server.url, "sum", tmp_path / "ac.py", "--user", "kim", "--password", "x")
    run = judge_cli("run", tmp_path / "problems" / "sum", "wa.py", "--fail-fast", cwd=tmp_path)  # BOJ's order
    run_hidden = judge_cli("run", tmp_path / "problems" / "sum", "hidden_wa.py", "--fail-fast", "--feedback", "boj",
                           cwd=tmp_path)

    assert accepted.returncode == 0, accepted.stderr
    assert "result: AC" in accepted.stdout and "2/2 tests passed" in accepted.stdout
    assert wrong.returncode == 1, wrong.stderr
    assert run.returncode == 1 and _without_timings(wrong.stdout) == _without_timings(run.stdout)
    assert "stopped at test 1 of 2: 0 passed, 1 not run" in wrong.stdout
    assert "+0" in wrong.stdout  # BOJ's policy: the sample's diff
    assert wrong_on_hidden.returncode == 1 and "hidden test: verdict only" in wrong_on_hidden.stdout
    assert _without_timings(wrong_on_hidden.stdout) == _without_timings(run_hidden.stdout)
    assert_usage_error(unknown, "404", "no problem 'nope'")
    assert_usage_error(bad_password, "401", "wrong id or password")


def test_a_second_server_on_the_same_data_folder_is_refused_in_one_line(tmp_path: Path) -> None:
    with running_server(tmp_path) as server:
        second = judge_cli("serve", tmp_path / "problems", "--roster", tmp_path / "roster.csv", "--data", server.data,
                           "--port", "0")
    assert_usage_error(second, "another `judge serve` is using this data folder")


def test_a_bad_roster_is_one_line_naming_the_file_and_the_fix(tmp_path: Path) -> None:
    write_problems(tmp_path / "problems")
    roster = tmp_path / "roster.csv"
    roster.write_text("id,name\nkim,Kim\nkim,Kim again\n", encoding="utf-8")
    done = judge_cli("serve", tmp_path / "problems", "--roster", roster, "--data", tmp_path / "data", "--port", "0")
    assert_usage_error(done, f"{roster}:3", "appears twice")


@pytest.mark.slow  # 3.4 s here: a server of its own (the default run keeps to ten minutes)
def test_missing_passwords_are_generated_kept_and_work(tmp_path: Path) -> None:
    write_problems(tmp_path / "problems")
    (tmp_path / "roster.csv").write_text("id,name\nkim,Kim\n", encoding="utf-8")
    with running_server(tmp_path) as server:
        lines = (server.data / "passwords.csv").read_text(encoding="utf-8").splitlines()
        assert lines[0] == "id,name,password" and lines[1].startswith("kim,Kim,")
        password = lines[1].split(",")[2]
        assert _get(server.url + "api/submissions", ("kim", password)) == []
        assert oct((server.data / "passwords.csv").stat().st_mode & 0o777) == "0o600"
    with running_server(tmp_path) as server:  # a restart keeps the slips already handed out valid
        assert (server.data / "passwords.csv").read_text(encoding="utf-8").splitlines()[1].endswith(password)
        assert _get(server.url + "api/submissions", ("kim", password)) == []


def _get(url: str, auth: tuple[str, str]) -> object:
    token = base64.b64encode(f"{auth[0]}:{auth[1]}".encode()).decode()
    request = urllib.request.Request(url, headers={"Authorization": f"Basic {token}"})
    with urllib.request.urlopen(request, timeout=30) as response:
        return json.loads(response.read())


def _post_source(url: str, auth: tuple[str, str], source: str) -> int:
    boundary = "b0undary"
    body = (f'--{boundary}\r\nContent-Disposition: form-data; name="problem"\r\n\r\nsum\r\n'
            f'--{boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.py"\r\n\r\n{source}\r\n'
            f"--{boundary}--\r\n").encode()
    token = base64.b64encode(f"{auth[0]}:{auth[1]}".encode()).decode()
    request = urllib.request.Request(url + "api/submissions", data=body, method="POST", headers={
        "Authorization": f"Basic {token}", "Content-Type": f"multipart/form-data; boundary={boundary}"})
    with urllib.request.urlopen(request, timeout=30) as response:
        assert response.status == 201
        return int(json.loads(response.read())["id"])


def _wait_gone(group: int) -> None:
    """Until no process of the server's process group is left (bounded)."""
    deadline = time.monotonic() + GONE_SECONDS
    while time.monotonic() < deadline:
        try:
            os.killpg(group, 0)
        except ProcessLookupError:
            return
        time.sleep(0.2)
    raise AssertionError(f"processes of the killed server are still running: {os.popen(f'ps -g {group}').read()}")


@pytest.mark.slow  # 10-30 s of deadlines and restarts: CI runs it in the slow suite
def test_after_sigkill_every_stored_submission_is_judged_exactly_once(tmp_path: Path) -> None:
    write_problems(tmp_path / "problems")
    write_roster(tmp_path / "roster.csv")
    data = tmp_path / "data"
    slow = "import time\ntime.sleep(0.5)\n" + AC_SOURCE
    process = start_server(tmp_path / "problems", tmp_path / "roster.csv", data, "-j", "2")
    url = wait_for_url(process)
    stored = [_post_source(url, (student, password), slow) for student, _, password in STUDENTS * 3]
    time.sleep(1.5)  # some judged, some being judged, some waiting
    process.send_signal(signal.SIGKILL)
    process.wait()
    _wait_gone(process.pid)  # the judging process and its workers noticed and left: nothing is left running
    store = Store(data)
    before = {row.id: row.judged_at for row in store.submissions() if row.status == "done"}

    restarted = start_server(tmp_path / "problems", tmp_path / "roster.csv", data, "-j", "2")
    try:
        wait_for_url(restarted)
        wait_until_judged(store, len(stored))
    finally:
        restarted.send_signal(signal.SIGTERM)
        restarted.wait(timeout=60)
        _wait_gone(restarted.pid)

    rows = store.submissions()
    assert sorted(row.id for row in rows) == sorted(stored)
    assert all(row.status == "done" and row.verdict is not None and row.verdict.short == "AC" for row in rows)
    assert all(row.judged_at == before[row.id] for row in rows if row.id in before)  # judged once, never again


@pytest.mark.slow
def test_a_submissions_progress_shows_the_test_being_judged(tmp_path: Path) -> None:
    slow = "import time\ntime.sleep(1.0)\n" + AC_SOURCE  # each test lasts a second: long enough to be seen
    seen: list[str] = []
    with running_server(tmp_path, "-j", "1") as server:
        submission_id = _post_source(server.url, STUDENTS[0][::2], slow)
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            document = _get(f"{server.url}api/submissions/{submission_id}", STUDENTS[0][::2])
            assert isinstance(document, dict)
            if document["progress"] and document["progress"] not in seen:
                seen.append(document["progress"])
            if document["status"] == "done":
                break
            time.sleep(0.1)
    assert document["verdict"] == "AC" and document["progress"] == ""
    assert "test 2 of 2" in seen and seen == sorted(seen, key=["compiling", "test 1 of 2", "test 2 of 2"].index)


@pytest.mark.slow
def test_a_worker_killed_mid_test_costs_nothing_the_submission_is_judged_once(tmp_path: Path) -> None:
    slow = "import time\ntime.sleep(1.5)\n" + AC_SOURCE
    with running_server(tmp_path, "-j", "1") as server:
        submission_id = _post_source(server.url, STUDENTS[0][::2], slow)
        url = f"{server.url}api/submissions/{submission_id}"
        deadline = time.monotonic() + 120
        while _get(url, STUDENTS[0][::2])["progress"] != "test 1 of 2":  # type: ignore[index]
            assert time.monotonic() < deadline, "the submission never started"
            time.sleep(0.1)
        judging_process, = (child for child in psutil.Process(server.process.pid).children()
                            if "spawn_main" in " ".join(child.cmdline()))  # not multiprocessing's resource tracker
        worker, = (child for child in judging_process.children() if child.children())  # the busy pool worker
        worker.kill()
        while (document := _get(url, STUDENTS[0][::2]))["status"] != "done":  # type: ignore[index]
            assert time.monotonic() < deadline, "not judged after its worker died"
            time.sleep(0.2)
    assert document["verdict"] == "AC"  # type: ignore[index]
    assert [case["verdict"] for case in document["result"]["cases"]] == ["AC", "AC"]  # type: ignore[index]
    assert Store(server.data).counts() == {"done": 1}


def test_tls_serves_https_with_a_secure_cookie(tmp_path: Path) -> None:
    if shutil.which("openssl") is None:
        pytest.skip("needs the openssl command to make a certificate")
    cert, key = tmp_path / "cert.pem", tmp_path / "key.pem"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-subj", "/CN=127.0.0.1", "-days",
                    "1", "-keyout", str(key), "-out", str(cert)], check=True, capture_output=True, timeout=60)
    with running_server(tmp_path, "--certfile", str(cert), "--keyfile", str(key)) as server:
        assert server.url.startswith("https://")
        context = ssl.create_default_context(cafile=str(cert))
        context.check_hostname = False
        with urllib.request.urlopen(server.url + "login", context=context, timeout=30) as response:
            cookie = response.headers["set-cookie"].lower()
            assert response.status == 200 and "secure" in cookie and "httponly" in cookie
