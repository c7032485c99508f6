"""The JSON API and the pages in-process (Starlette's test client, no judging process): who may see what, the
refusals (one line each), CSRF, the security headers, and that nothing else is served."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from serve_fixtures import AC_SOURCE, judged, make_context
from starlette.testclient import TestClient

from judge.judging.feedback import STUDENT, TEACHER, shown
from judge.judging.results import SubmissionResult
from judge.serve.app import create_app
from judge.serve.contest import ContestSettings
from judge.serve.service import LOGIN_ATTEMPTS, SUBMISSIONS_PER_MINUTE, ServeContext
from judge.verdicts import Verdict

KIM = ("kim", "kim-password")
LEE = ("lee", "lee-password")


@pytest.fixture
def context(tmp_path: Path) -> ServeContext:
    return make_context(tmp_path, max_pending=2)


@pytest.fixture
def client(context: ServeContext) -> TestClient:
    return TestClient(create_app(context), base_url="http://127.0.0.1")


def _post(client: TestClient, auth: tuple[str, str], source: str = AC_SOURCE, name: str = "a.py",
          **fields: str):
    return client.post("/api/submissions", auth=auth, data={"problem": "sum", **fields},
                       files={"file": (name, source.encode())})


def _sign_in(client: TestClient, user: str, password: str) -> str:
    """Sign in through the form; the session's CSRF token."""
    page = client.get("/login").text
    token = re.search(r'name="csrf" value="([^"]+)"', page).group(1)  # type: ignore[union-attr]
    done = client.post("/login", data={"csrf": token, "id": user, "password": password}, follow_redirects=False)
    assert done.status_code == 303, done.text
    home = client.get("/").text
    return re.search(r'name="csrf-token" content="([^"]+)"', home).group(1)  # type: ignore[union-attr]


def test_a_submission_is_stored_before_201_and_only_its_student_sees_it(client: TestClient,
                                                                          context: ServeContext) -> None:
    created = _post(client, KIM)
    assert created.status_code == 201, created.text
    submission_id = created.json()["id"]
    assert context.store.source(submission_id) == AC_SOURCE.encode()

    mine = client.get(f"/api/submissions/{submission_id}", auth=KIM).json()
    assert (mine["status"], mine["verdict"], mine["result"], mine["problem"]) == ("queued", None, None, "sum")
    assert client.get(f"/api/submissions/{submission_id}", auth=LEE).status_code == 404
    assert client.get("/api/submissions", auth=LEE).json() == []
    assert [row["id"] for row in client.get("/api/submissions", auth=KIM).json()] == [submission_id]
    assert client.get(f"/api/submissions/{submission_id}", auth=("teacher", "teacher-secret")).status_code == 200


STATUS = {"id", "student", "problem", "language", "language_name", "file_name", "submitted_at", "judged_at",
          "status", "progress", "verdict", "verdict_name", "error"}


def test_a_submission_is_its_status_and_its_shown_results_own_dictionary(client: TestClient,
                                                                          context: ServeContext) -> None:
    """One wire shape per record (issue 40): a list's entry is the status; the document is the status, the policy
    and, under "result", `SubmissionResult.to_dict()` of the result as that policy shows it, and nothing else."""
    submission_id = _post(client, KIM).json()["id"]
    judged(context.store, submission_id, Verdict.WA, message="line 1: expected '3', got '0'", diff="-3\n+0")
    result = context.store.submission(submission_id).result  # type: ignore[union-attr]
    assert result is not None
    for auth, reader in ((KIM, STUDENT), (("teacher", "teacher-secret"), TEACHER)):
        (entry,) = client.get("/api/submissions", auth=auth).json()
        document = client.get(f"/api/submissions/{submission_id}", auth=auth).json()
        seen = shown(result, reader).result
        assert set(entry) == STATUS
        assert document == {**entry, "feedback": reader, "result": json.loads(json.dumps(seen.to_dict()))}
        assert SubmissionResult.from_dict(document["result"]) == seen
    assert document["result"]["cases"][1]["diff"] == "-3\n+0"  # the teacher's: the hidden test in full
    assert shown(result, STUDENT).result.cases[1].diff == ""  # so the student's document above had none


def test_what_a_result_was_measured_under_is_the_teachers_to_read(client: TestClient, context: ServeContext) -> None:
    """The provenance names the server and its load (issue 43): the teacher's document and page show it, a
    student's show none of it."""
    submission_id = _post(client, KIM).json()["id"]
    measured = {"containment": "cgroup", "memory": "cgroup v2", "sandbox": "bwrap", "workers": 2,
                "pinning": "core 1", "load_average": 0.5, "judge_version": "9.9", "toolchain": "Python 3.11.2",
                "host": {"machine": "lab-server-7"}}
    judged(context.store, submission_id, Verdict.AC, provenance=measured)
    teacher = ("teacher", "teacher-secret")
    assert client.get(f"/api/submissions/{submission_id}", auth=teacher).json()["result"]["provenance"] == measured
    assert client.get(f"/api/submissions/{submission_id}", auth=KIM).json()["result"]["provenance"] == {}
    _sign_in(client, "kim", "kim-password")
    student_page = client.get(f"/submissions/{submission_id}").text
    assert "lab-server-7" not in student_page and "measured under" not in student_page
    client.cookies.clear()
    _sign_in(client, "teacher", "teacher-secret")
    teacher_page = client.get(f"/submissions/{submission_id}").text
    assert "measured under: cgroup containment" in teacher_page and "lab-server-7" in teacher_page


def test_every_student_route_refuses_another_students_submission(client: TestClient) -> None:
    submission_id = _post(client, KIM).json()["id"]
    _sign_in(client, *LEE)
    page = client.get(f"/submissions/{submission_id}")
    assert page.status_code == 404 and "print(a + b)" not in page.text
    assert client.get(f"/api/submissions/{submission_id}").status_code == 404
    assert f'href="/submissions/{submission_id}"' not in client.get("/submissions").text
    assert client.get("/api/submissions").json() == []
    assert client.get("/scoreboard").status_code == 200 and client.get("/api/scoreboard").status_code == 200
    assert client.get("/teacher").status_code == 404
    assert client.get("/teacher/export/grades.csv").status_code == 404
    token = re.search(r'name="csrf-token" content="([^"]+)"', client.get("/").text).group(1)  # type: ignore[union-attr]
    for action in ("rejudge", "problems", "settings", "announce", "export"):
        assert client.post(f"/teacher/{action}", data={"csrf": token, "target": "all", "text": "hi"}).status_code == 404
    _sign_in(client, *KIM)
    assert f'href="/submissions/{submission_id}"' in client.get("/submissions").text  # the owner sees it


def test_wrong_or_missing_credentials_are_refused_in_one_line(client: TestClient) -> None:
    assert client.get("/api/submissions").status_code == 401
    wrong = client.get("/api/submissions", auth=("kim", "guess"))
    assert wrong.status_code == 401 and wrong.json() == {"error": "wrong id or password"}
    assert client.get("/api/submissions", auth=("nobody", "guess")).json() == {"error": "wrong id or password"}
    assert client.get("/", follow_redirects=False).headers["location"] == "/login"


def test_sign_in_attempts_are_rate_limited_per_student(client: TestClient) -> None:
    codes = [client.get("/api/submissions", auth=("kim", f"guess{n}")).status_code for n in range(11)]
    assert codes == [401] * 10 + [429]
    assert client.get("/api/submissions", auth=KIM).status_code == 429  # even the right password, for a while
    assert client.get("/api/submissions", auth=LEE).status_code == 200


def test_only_failed_sign_ins_count_and_only_against_their_id_and_address(client: TestClient) -> None:
    """Every caller here comes from one address, as a lab behind NAT or a reverse proxy does: the right password
    any number of times is never refused, and failures for other ids, however many, refuse no one else."""
    assert {client.get("/api/submissions", auth=KIM).status_code for _ in range(LOGIN_ATTEMPTS[0] * 2)} == {200}
    codes = {client.get("/api/submissions", auth=(f"nobody{n}", "guess")).status_code
             for n in range(LOGIN_ATTEMPTS[0] * 10 + 1)}
    assert codes == {401}
    assert client.get("/api/submissions", auth=LEE).status_code == 200


def test_a_source_over_the_problems_limit_is_refused_before_it_is_stored(client: TestClient,
                                                                          context: ServeContext) -> None:
    big = _post(client, KIM, source="#" * (64 * 1024 + 1))
    assert big.status_code == 413 and "at most 65536" in big.json()["error"]
    assert context.store.counts() == {}


def test_pending_submissions_per_student_are_capped_with_a_clear_message(client: TestClient) -> None:
    assert [_post(client, KIM).status_code for _ in range(3)] == [201, 201, 429]
    assert "already have 2 submissions waiting" in _post(client, KIM).json()["error"]
    assert _post(client, LEE).status_code == 201


def test_submissions_refused_by_the_cap_do_not_count_against_the_rate_limit(client: TestClient,
                                                                            context: ServeContext) -> None:
    stored = [_post(client, KIM).json()["id"] for _ in range(2)]
    refused = [_post(client, KIM).status_code for _ in range(SUBMISSIONS_PER_MINUTE)]
    for submission_id in stored:
        judged(context.store, submission_id, Verdict.AC)
    assert refused == [429] * SUBMISSIONS_PER_MINUTE
    again = _post(client, KIM)
    assert again.status_code == 201, again.json()


def test_the_rate_limit_refuses_the_submission_past_the_minutes_allowance(tmp_path: Path) -> None:
    context = make_context(tmp_path, max_pending=SUBMISSIONS_PER_MINUTE + 1)
    client = TestClient(create_app(context), base_url="http://127.0.0.1")
    codes = [_post(client, KIM).status_code for _ in range(SUBMISSIONS_PER_MINUTE + 1)]
    assert codes == [201] * SUBMISSIONS_PER_MINUTE + [429]
    assert f"at most {SUBMISSIONS_PER_MINUTE} submissions a minute" in _post(client, KIM).json()["error"]


def test_submissions_outside_the_contest_window_are_refused_saying_when(client: TestClient,
                                                                        context: ServeContext) -> None:
    context.store.put_settings(ContestSettings(start=4102444800.0).stored())  # 2100-01-01
    refused = _post(client, KIM)
    assert refused.status_code == 403 and refused.json() == {
        "error": "the contest opens at 2100-01-01 00:00 UTC; submit then"}
    context.store.put_settings(ContestSettings(end=946684800.0).stored())  # 2000-01-01
    assert "closed at 2000-01-01 00:00 UTC" in _post(client, KIM).json()["error"]


def test_the_language_is_guessed_from_the_file_and_can_be_changed(client: TestClient, context: ServeContext) -> None:
    guessed = _post(client, KIM, name="sum.cpp", source="int main(){}\n").json()["id"]
    chosen = _post(client, KIM, name="sum.txt", source=AC_SOURCE, language="python3").json()["id"]
    unknown = _post(client, LEE, name="sum.txt")
    assert client.get(f"/api/submissions/{guessed}", auth=KIM).json()["language"] == "cpp"
    assert client.get(f"/api/submissions/{chosen}", auth=KIM).json()["language"] == "python3"
    assert unknown.status_code == 400 and "unknown language" in unknown.json()["error"]


def test_a_browser_post_needs_the_sessions_csrf_token(client: TestClient) -> None:
    token = _sign_in(client, *KIM)
    files = {"file": ("a.py", AC_SOURCE.encode())}
    without = client.post("/api/submissions", data={"problem": "sum"}, files=files)
    assert without.status_code == 403 and "CSRF" in without.json()["error"]
    assert client.post("/api/submissions", data={"problem": "sum"}, files=files,
                       headers={"X-CSRF-Token": token}).status_code == 201
    form = client.post("/problems/sum", data={"problem": "sum", "code": AC_SOURCE, "language": "python3"},
                       follow_redirects=False)
    assert form.status_code == 303 and form.headers["location"] == "/problems/sum"  # sent back, not stored
    assert "this form expired" in client.get("/problems/sum").text and len(client.get("/api/submissions").json()) == 1
    form = client.post("/problems/sum", data={"csrf": token, "problem": "sum", "code": AC_SOURCE,
                                              "language": "python3"}, follow_redirects=False)
    assert form.status_code == 303 and form.headers["location"].startswith("/submissions/")


def test_every_response_carries_a_csp_without_inline_script_and_a_strict_httponly_cookie(client: TestClient) -> None:
    page = client.get("/login")
    csp = page.headers["content-security-policy"]
    assert "script-src 'self'" in csp and "unsafe-inline" not in csp and "default-src 'none'" in csp
    cookie = page.headers["set-cookie"].lower()
    assert "httponly" in cookie and "samesite=strict" in cookie
    assert re.findall(r"<script(?![^>]*\bsrc=)|\son\w+=", page.text) == []  # no inline script, no handlers
    assert client.get("/api/scoreboard", auth=KIM).headers["content-security-policy"] == csp


@pytest.mark.parametrize("path", ["/data/serve.sqlite", "/serve.sqlite", "/static/../serve.sqlite",
                                  "/static/%2e%2e/%2e%2e/serve/store.py", "/teacher-secret.txt", "/passwords.csv",
                                  "/problems/sum/tests/2.ans", "/static/../../../problems/sum/tests/2.ans"])
def test_nothing_under_the_data_folder_or_the_problems_is_served(client: TestClient, path: str) -> None:
    response = client.get(path, auth=KIM)
    assert response.status_code == 404, (path, response.status_code)
    assert b"12" not in response.content and b"SQLite" not in response.content


def test_the_scoreboard_can_be_hidden_from_students(client: TestClient, context: ServeContext) -> None:
    context.store.put_settings(ContestSettings(scoreboard_hidden=True).stored())
    assert client.get("/api/scoreboard", auth=KIM).status_code == 403
    assert client.get("/api/scoreboard", auth=("teacher", "teacher-secret")).status_code == 200


def test_the_teacher_does_not_submit(client: TestClient) -> None:
    assert _post(client, ("teacher", "teacher-secret")).status_code == 403


@pytest.mark.parametrize("name", ["a\x00b.py", "..", ".py", "x y.py", "\u202egnp.py", "a" * 150 + ".py"])
def test_an_odd_file_name_is_stored_as_main_with_its_languages_extension(client: TestClient, name: str) -> None:
    created = _post(client, KIM, name=name, language="python3")
    assert created.status_code == 201, created.text
    assert client.get(f"/api/submissions/{created.json()['id']}", auth=KIM).json()["file_name"] == "Main.py"


def test_a_statements_figure_is_served_to_a_signed_in_student_as_an_image(client: TestClient,
                                                                         context: ServeContext) -> None:
    (context.problems_dir / "sum" / "graph.png").write_bytes(b"\x89PNG\r\n\x1a\nfigure")
    (context.problems_dir / "sum" / "notes.txt").write_text("not a figure")
    assert client.get("/problems/sum/statement/graph.png", follow_redirects=False).status_code == 303
    _sign_in(client, *KIM)
    figure = client.get("/problems/sum/statement/graph.png")
    assert figure.status_code == 200 and figure.content == b"\x89PNG\r\n\x1a\nfigure"
    assert figure.headers["content-type"] == "image/png" and figure.headers["x-content-type-options"] == "nosniff"
    for missing in ("notes.txt", "missing.png", "..%2Fproblem.yaml", "%2E%2E/sum/graph.png"):
        assert client.get(f"/problems/sum/statement/{missing}").status_code == 404, missing
    assert client.get("/problems/nosuch/statement/graph.png").status_code == 404
