"""What students put in (names, file names, code, and what their programs print) reaches every page of the server
as text: HTML-escaped, with escapes and invisible characters shown, never markup; the API's JSON (which the pages'
script shows as text) is pure ASCII with the same characters shown as escapes."""

from __future__ import annotations

import re
from pathlib import Path

from serve_fixtures import judged, make_context
from starlette.testclient import TestClient

from judge.serve.app import create_app
from judge.serve.store import NewSubmission
from judge.verdicts import Verdict

NAME = "<script>alert('name')</script>\x1b[31mred\u202eevil"
FILE_NAME = '<img src=x onerror="alert(1)">.py'
CODE = "# </pre><script>alert('code')</script>\x1b]52;c;aGk=\x07\nprint(0)\n"
OUTPUT = "\x1b[2J<b>bold</b>\u200bhidden"
MARKUP = ("<script>alert", "<img src=x", "<b>bold", "\x1b", "\u202e", "\u200b")


def _signed_in(client: TestClient, user: str, password: str) -> TestClient:
    token = re.search(r'name="csrf" value="([^"]+)"', client.get("/login").text).group(1)  # type: ignore[union-attr]
    client.post("/login", data={"csrf": token, "id": user, "password": password})
    return client


def test_hostile_names_code_and_output_are_text_on_every_page(tmp_path: Path) -> None:
    context = make_context(tmp_path, (("evil", NAME, "evil-password"), ("kim", "Kim", "kim-password")))
    submission_id = context.store.add_submission(NewSubmission("evil", "sum", "python3", FILE_NAME, CODE.encode()), 5)
    assert submission_id is not None
    judged(context.store, submission_id, Verdict.WA, message=OUTPUT, diff=f"-12\n+{OUTPUT}")
    student = _signed_in(TestClient(create_app(context), base_url="http://127.0.0.1"), "evil", "evil-password")
    teacher = _signed_in(TestClient(create_app(context), base_url="http://127.0.0.1"), "teacher", "teacher-secret")
    kim = _signed_in(TestClient(create_app(context), base_url="http://127.0.0.1"), "kim", "kim-password")

    pages = {
        "own submission": student.get(f"/submissions/{submission_id}").text,
        "own list": student.get("/submissions").text,
        "teacher list": teacher.get("/teacher").text,
        "teacher submission": teacher.get(f"/submissions/{submission_id}").text,
        "scoreboard seen by another student": kim.get("/scoreboard").text,
    }

    for where, html in pages.items():
        for markup in MARKUP:
            assert markup not in html, (where, markup)
    assert "&lt;script&gt;alert(&#x27;name&#x27;)&lt;/script&gt;\\x1b[31mred\\u202eevil" in pages["teacher list"]
    assert "&lt;img src=x onerror=&#34;alert(1)&#34;&gt;.py" in pages["own submission"] or \
        "&lt;img src=x onerror=&quot;alert(1)&quot;&gt;.py" in pages["own submission"]
    assert "&lt;/pre&gt;&lt;script&gt;alert(&#x27;code&#x27;)&lt;/script&gt;\\x1b]52;c;aGk=\\x07" in pages["own submission"]
    assert "\\x1b[2J&lt;b&gt;bold&lt;/b&gt;\\u200bhidden" in pages["teacher submission"]  # the hidden test's output
    assert "\\x1b[2J&lt;b&gt;bold&lt;/b&gt;" in pages["own submission"]  # the sample's message, BOJ's policy
    assert NAME.split("\x1b")[0].replace("<", "&lt;").replace(">", "&gt;").replace("'", "&#x27;") in \
        pages["scoreboard seen by another student"]

    document = student.get(f"/api/submissions/{submission_id}")
    assert document.content.isascii()
    assert document.json()["result"]["cases"][0]["message"] == "\\x1b[2J<b>bold</b>\\u200bhidden"  # the script sets textContent
    board = kim.get("/api/scoreboard").json()
    assert "<script>alert('name')</script>\\x1b[31mred\\u202eevil" in [row["name"] for row in board["rows"]]
