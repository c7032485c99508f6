"""A counterexample that teaches without leaking, against a real `judge serve`: a student whose submission got WA on a
hidden test asks for a small input it fails on; what comes back is no test's input (byte for byte), reproduces the
failure with `judge run`, is bounded per student, waits for every queued submission, and is logged for the
teacher. The search's own rules are tested in tests/stress/test_generated_only.py."""

from __future__ import annotations

import base64
import json
import shutil
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import psutil
import pytest
from conftest import ROOT, judge_cli, write_problem
from http_session import signed_in
from serve_fixtures import headless_chromium, running_server, sign_in_page, write_roster

from judge.serve.roster import TEACHER_SECRET_FILE
from judge.serve.store import Store

WAIT_SECONDS = 240.0
DOUBLE_REFERENCE = "print(2 * int(input()))\n"
WRONG_FROM_500 = "k = int(input())\nprint(2 * k if k < 500 else 0)\n"
GENERATOR = "import sys\nprint(500 + int(sys.argv[sys.argv.index('--seed') + 1]))\n"
"""Seed s prints 500 + s: seeds 0 and 1 print the hidden tests' inputs, which must never be shown."""
TESTS = {"sample1": ("3\n", "6\n"), "1": ("500\n", "1000\n"), "2": ("501\n", "1002\n")}
SLOW = "while True:\n    pass\n"
STUDENTS = (("kim", "Kim Minji", "kim-password"), ("lee", "Lee Jun", "lee-password"))


def _class(tmp_path: Path) -> Path:
    """problems/double (A -> 2A, a generator, a validator-free sample and two hidden tests), its reference beside
    it in submissions/double/accepted/, and the roster."""
    problem = write_problem(tmp_path / "problems" / "double", TESTS, id="double", title="Double", time_limit=1)
    (problem / "generator.py").write_text(GENERATOR)
    accepted = tmp_path / "submissions" / "double" / "accepted"
    accepted.mkdir(parents=True)
    (accepted / "double.py").write_text(DOUBLE_REFERENCE)
    write_roster(tmp_path / "roster.csv", STUDENTS)
    return problem


def _api(url: str, method: str, path: str, user: str, body: bytes | None = None,
         content_type: str = "") -> tuple[int, dict]:
    request = urllib.request.Request(url + path.lstrip("/"), data=body, method=method)
    password = dict((i, p) for i, _, p in STUDENTS)[user]
    request.add_header("Authorization", "Basic " + base64.b64encode(f"{user}:{password}".encode()).decode())
    if content_type:
        request.add_header("Content-Type", content_type)
    try:
        with urllib.request.urlopen(request, timeout=60) as response:
            return response.status, json.loads(response.read() or b"{}")
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read() or b"{}")


def _submit(url: str, user: str, code: str, problem: str = "double") -> int:
    boundary = "judgeboundary"
    body = (f"--{boundary}\r\nContent-Disposition: form-data; name=\"problem\"\r\n\r\n{problem}\r\n"
            f"--{boundary}\r\nContent-Disposition: form-data; name=\"file\"; filename=\"main.py\"\r\n\r\n"
            f"{code}\r\n--{boundary}--\r\n").encode()
    status, answer = _api(url, "POST", "api/submissions", user, body, f"multipart/form-data; boundary={boundary}")
    assert status == 201, answer
    return int(answer["id"])


def _until(check, what: str):  # noqa: ANN001, ANN202 -- a test's poll
    deadline = time.monotonic() + WAIT_SECONDS
    while time.monotonic() < deadline:
        found = check()
        if found:
            return found
        time.sleep(0.1)
    raise AssertionError(f"not {what} within {WAIT_SECONDS} s")


def _verdict(url: str, user: str, submission: int) -> str:
    def done() -> str:
        _, document = _api(url, "GET", f"api/submissions/{submission}", user)
        return document.get("verdict") or "" if document.get("status") == "done" else ""
    return _until(done, f"judged: submission {submission}")


def _counterexample(url: str, user: str, submission: int) -> dict:
    def done() -> dict:
        status, document = _api(url, "GET", f"api/submissions/{submission}/counterexample", user)
        return document if status == 200 and document["status"] == "done" else {}
    return _until(done, f"searched: submission {submission}")


def _teacher(url: str, data: Path):  # noqa: ANN202 -- http_session's Session
    return signed_in(url, "teacher", (data / TEACHER_SECRET_FILE).read_text().strip())


def _turn_on(url: str, data: Path, problem: str = "double") -> None:
    assert _teacher(url, data).post_form("teacher/counterexamples", {"problem": problem}) == 200


@pytest.fixture
def served(tmp_path: Path) -> Iterator[tuple[str, Path, Path]]:
    problem = _class(tmp_path)
    with running_server(tmp_path, "-j", "1") as server:
        yield server.url, problem, server.data


@pytest.mark.slow  # 3.1 s here: a server of its own (the default run keeps to ten minutes)
def test_a_wa_gets_an_input_that_is_no_test_s_and_judge_run_reproduces_it(served, tmp_path: Path) -> None:
    url, problem, data = served
    wrong = _submit(url, "kim", WRONG_FROM_500)
    assert _verdict(url, "kim", wrong) == "WA"
    status, refused = _api(url, "POST", f"api/submissions/{wrong}/counterexample", "kim")
    assert status == 403 and "not turned counterexamples on" in refused["error"]  # off until the teacher says
    _turn_on(url, data)

    status, asked = _api(url, "POST", f"api/submissions/{wrong}/counterexample", "kim")
    assert status == 202, asked
    found = _counterexample(url, "kim", wrong)

    assert found["found"] == "found" and found["verdict"] == "WA"
    shown = found["input"].encode()
    tests = [path.read_bytes() for path in sorted((problem / "tests").glob("*.in"))]
    assert len(tests) == 3 and all(shown != test for test in tests)  # 500 and 501 fail too: they are the tests
    assert found["expected"] == "1004\n" and found["actual"] == "0\n"
    # `judge run` on a folder holding just that input and the expected output: WA again
    repro = tmp_path / "repro"
    (repro / "tests").mkdir(parents=True)
    shutil.copy(problem / "problem.yaml", repro / "problem.yaml")
    (repro / "tests" / "1.in").write_bytes(shown)
    (repro / "tests" / "1.ans").write_text(found["expected"])
    source = tmp_path / "wrong.py"
    source.write_text(WRONG_FROM_500)
    ran = judge_cli("run", repro, source, "--format", "json")
    assert ran.returncode == 1, ran.stderr
    assert json.loads(ran.stdout)["verdict"] == "WA"
    # another student may not read it, and the teacher's log names who asked, for which submission, what was found
    assert _api(url, "GET", f"api/submissions/{wrong}/counterexample", "lee")[0] == 404
    status, page = _teacher(url, data).get("teacher")
    log = page.decode().split('id="counterexample-log"')[1].split("</table>")[0]
    assert status == 200 and "kim" in log and f">{wrong}</a>" in log and "WA on" in log and "502" in log


@pytest.mark.slow  # 3.5 s here: a server of its own (the default run keeps to ten minutes)
def test_asking_is_bounded_per_student_and_hour(served) -> None:
    url, _, data = served
    _turn_on(url, data)
    wrong = _submit(url, "kim", WRONG_FROM_500)
    assert _verdict(url, "kim", wrong) == "WA"
    for _ in range(3):
        assert _api(url, "POST", f"api/submissions/{wrong}/counterexample", "kim")[0] == 202
        _counterexample(url, "kim", wrong)
    status, refused = _api(url, "POST", f"api/submissions/{wrong}/counterexample", "kim")
    assert status == 429 and "at most 3 counterexamples an hour; you may ask again at" in refused["error"]
    other = _submit(url, "lee", WRONG_FROM_500)  # another student's hour is their own
    assert _verdict(url, "lee", other) == "WA"
    assert _api(url, "POST", f"api/submissions/{other}/counterexample", "lee")[0] == 202


@pytest.mark.slow  # 10-20 s of judging: CI runs it in the slow suite
def test_a_request_waits_for_every_queued_submission(served) -> None:
    """With one worker busy on a slow submission and more queued behind it, the request stays queued until the
    queue is empty (seen at every look), and one request is pending at a time."""
    url, _, data = served
    _turn_on(url, data)
    wrong = _submit(url, "kim", WRONG_FROM_500)
    assert _verdict(url, "kim", wrong) == "WA"
    slow = [_submit(url, "lee", SLOW) for _ in range(3)]
    store = Store(data)
    _until(lambda: store.counts().get("judging"), "judging the first slow submission")
    assert _api(url, "POST", f"api/submissions/{wrong}/counterexample", "kim")[0] == 202
    status, refused = _api(url, "POST", f"api/submissions/{wrong}/counterexample", "kim")
    assert status == 429 and "already have a counterexample" in refused["error"]

    def queue_empty() -> bool:
        counts = store.counts()
        request = store.counterexample_of(wrong)
        assert request is not None
        if counts.get("queued"):
            assert request.status == "queued", (counts, request)
        return not counts.get("queued")

    _until(queue_empty, "done with the queue")
    found = _counterexample(url, "kim", wrong)
    request = store.counterexample_of(wrong)
    judged = [store.submission(number) for number in slow]
    assert found["found"] == "found" and request is not None and request.finished_at is not None
    assert all(row is not None and row.judged_at is not None for row in judged)
    assert request.finished_at > max(row.judged_at for row in judged if row and row.judged_at)


@pytest.mark.slow
def test_n_queen_shows_nothing_since_its_tests_hold_every_input(tmp_path: Path) -> None:
    """9663's tests hold every legal N: a counterexample would be a hidden test's input, so none is shown."""
    shutil.copytree(ROOT / "problems" / "9663", tmp_path / "problems" / "9663")
    accepted = tmp_path / "submissions" / "9663" / "accepted"
    accepted.mkdir(parents=True)
    shutil.copy(ROOT / "submissions/9663/accepted/bitmask_mirror.py", accepted)
    write_roster(tmp_path / "roster.csv", STUDENTS)
    wrong = (  # right on the sample (N = 8), wrong on the hidden N = 5
        "answers = [0, 1, 0, 0, 2, 10, 4, 40, 92, 352, 724, 2680, 14200, 73712, 365596]\n"
        "n = int(input())\nprint(answers[n] if n != 5 else 11)\n"
    )
    with running_server(tmp_path, "-j", "1") as server:
        _turn_on(server.url, server.data, "9663")
        submitted = _submit(server.url, "kim", wrong, "9663")
        assert _verdict(server.url, "kim", submitted) == "WA"
        assert _api(server.url, "POST", f"api/submissions/{submitted}/counterexample", "kim")[0] == 202
        found = _counterexample(server.url, "kim", submitted)
    assert found["found"] == "none" and found["input"] == "" and found["actual"] == ""


@pytest.mark.slow  # 5-13 s in Chromium or of judging: CI runs it in the slow suite
def test_the_button_then_the_counterexample_in_chromium(tmp_path: Path) -> None:
    _class(tmp_path)
    with headless_chromium() as browser, running_server(tmp_path, "-j", "1") as server:
        _turn_on(server.url, server.data)
        wrong = _submit(server.url, "kim", WRONG_FROM_500)
        assert _verdict(server.url, "kim", wrong) == "WA"
        page = browser.new_page()  # type: ignore[attr-defined]
        errors: list[str] = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        sign_in_page(page, server.url, "kim", "kim-password")
        page.goto(f"{server.url}submissions/{wrong}")
        page.click("#ask-counterexample")
        page.wait_for_selector("#counterexample-input", timeout=WAIT_SECONDS * 1000)
        assert page.inner_text("#counterexample-input").strip() == "502"
        assert page.inner_text("#counterexample-expected").strip() == "1004"
        assert page.inner_text("#counterexample-actual").strip() == "0"
        assert not errors


SLOW_WRONG_FROM_1100 = (  # a tenth of a CPU second per run, so the search takes a while
    "import time\nend = time.process_time() + 0.1\nwhile time.process_time() < end:\n    pass\n"
    "k = int(input())\nprint(2 * k if k < 1100 else 0)\n"
)
SLOW_DOUBLE = (  # right, after a quarter of a CPU second per test: its judging outlasts many of the test's looks
    "import time\nend = time.process_time() + 0.25\nwhile time.process_time() < end:\n    pass\n" + DOUBLE_REFERENCE
)


@pytest.mark.slow  # 10-20 s of judging: CI runs it in the slow suite
def test_a_search_gives_its_worker_back_to_a_submission_that_arrives(tmp_path: Path) -> None:
    """One worker, a search under way (about a hundred generated inputs pass before one fails): a submission that
    arrives takes the worker, the request goes back to the queue meanwhile, and is searched again after it."""
    problem = _class(tmp_path)
    shutil.rmtree(problem / "tests")
    write_problem(problem, {"sample1": ("3\n", "6\n"), "1": ("1100\n", "2200\n")}, id="double", title="Double",
                  time_limit=1)
    (problem / "generator.py").write_text("import sys\nprint(1000 + int(sys.argv[sys.argv.index('--seed') + 1]))\n")
    with running_server(tmp_path, "-j", "1") as server:
        url, store = server.url, Store(server.data)
        _turn_on(url, server.data)
        wrong = _submit(url, "kim", SLOW_WRONG_FROM_1100)
        assert _verdict(url, "kim", wrong) == "WA"
        assert _api(url, "POST", f"api/submissions/{wrong}/counterexample", "kim")[0] == 202
        _until(lambda: (store.counterexample_of(wrong) or None) and store.counterexample_of(wrong).status == "searching",
               "searching")
        # Slow, so that the request sits in the queue for more than half a second, five looks of `_until`: a quick
        # judging gave it back for less than one look's 0.1 s, and the look missed it (CI, once).
        arriving = _submit(url, "lee", SLOW_DOUBLE)
        statuses = set()

        def judged() -> bool:
            request = store.counterexample_of(wrong)
            assert request is not None
            statuses.add(request.status)
            row = store.submission(arriving)
            return row is not None and row.status == "done"

        _until(judged, "the arriving submission judged")
        found = _counterexample(url, "kim", wrong)
        request, row = store.counterexample_of(wrong), store.submission(arriving)
    assert "queued" in statuses  # given back while the submission had the worker
    assert row is not None and row.verdict is not None and row.verdict.short == "AC"
    assert found["found"] == "found" and found["input"] == "1101\n"  # 1100 fails too: it is the test's input
    assert request is not None and row.judged_at is not None and request.finished_at is not None
    assert row.judged_at < request.finished_at


def test_a_special_judge_shows_the_checker_s_message_instead_of_an_expected_output() -> None:
    """2580 (Sudoku) has checker.py: many outputs may be right, so the reference's is not shown as *the* answer."""
    from judge.problems.load import load_problem_folder
    from judge.serve.counterexamples import shown
    from judge.serve.store import CounterexampleResult, StoredCounterexample

    result = CounterexampleResult("found", input=b"0 0\n", expected=b"a reference's\n", actual=b"mine\n",
                                  verdict="WA", message="row 1 has two 5s")
    request = StoredCounterexample(1, 7, "kim", "2580", 0.0, "done", result, 1.0)
    sudoku = shown(request, load_problem_folder(ROOT / "problems" / "2580"), teacher=False)
    queens = shown(request, load_problem_folder(ROOT / "problems" / "9663"), teacher=False)
    assert sudoku.special_judge and sudoku.expected == "" and sudoku.message == "row 1 has two 5s"
    assert not queens.special_judge and queens.expected == "a reference's\n"


HOSTILE_FROM_500 = (
    "k = int(input())\n"
    "print(2 * k if k < 500 else '<script>document.title=1</script>\\x1b[2J' + 'x' * 10000)\n"
)


def test_what_the_program_printed_is_inert_and_cut_on_the_page(served) -> None:
    url, _, data = served
    _turn_on(url, data)
    wrong = _submit(url, "kim", HOSTILE_FROM_500)
    assert _verdict(url, "kim", wrong) == "WA"
    assert _api(url, "POST", f"api/submissions/{wrong}/counterexample", "kim")[0] == 202
    found = _counterexample(url, "kim", wrong)
    assert found["found"] == "found" and found["input"] == "502\n"
    status, page = signed_in(url, "kim", "kim-password").get(f"submissions/{wrong}")
    shown = page.decode().split('id="counterexample-actual">')[1].split("</pre>")[0]
    assert status == 200 and "&lt;script&gt;document.title=1&lt;/script&gt;" in shown
    assert "<script>document" not in page.decode() and "\x1b" not in page.decode()
    assert 4000 < shown.count("x") < 4096  # cut at 4 KiB of output


@pytest.mark.slow
def test_the_search_process_does_not_outlive_the_server(tmp_path: Path) -> None:
    """Once a search has run, its process waits for the next one; when `judge serve` ends, it ends too (it stayed
    behind, idle, for good, with its resource tracker)."""
    _class(tmp_path)
    with running_server(tmp_path, "-j", "1") as server:
        wrong = _submit(server.url, "kim", WRONG_FROM_500)
        assert _verdict(server.url, "kim", wrong) == "WA"
        _turn_on(server.url, server.data)
        assert _api(server.url, "POST", f"api/submissions/{wrong}/counterexample", "kim")[0] == 202
        assert _counterexample(server.url, "kim", wrong)["found"] == "found"
        descendants = psutil.Process(server.process.pid).children(recursive=True)
        assert any("spawn_main" in " ".join(child.cmdline()) for child in descendants)
    _until(lambda: not [child for child in descendants if _alive(child)], "every process of the server gone")


def _alive(process: psutil.Process) -> bool:
    try:
        return process.status() != psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return False
