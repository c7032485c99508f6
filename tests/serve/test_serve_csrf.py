"""HTTP Basic is no way round CSRF: a browser that once answered the API's Basic challenge sends the credentials
again by itself, even with another site's form. Seen in a real headless Chromium (a form on another origin posts a
submission as the student), and over HTTP with the headers browsers send; `judge submit` and curl, which send
neither Sec-Fetch-Site nor Origin, still submit."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from serve_fixtures import AC_SOURCE, STUDENTS, headless_chromium, running_server
from serve_http import Browser, basic

from judge.serve.store import Store

KIM = STUDENTS[0]
ATTACKER = "http://attacker.test"
SUBMISSION = {"problem": "sum", "code": AC_SOURCE, "language": "python3"}


@pytest.mark.parametrize("headers", [
    {"Sec-Fetch-Site": "cross-site", "Origin": ATTACKER},
    {"Sec-Fetch-Site": "same-site", "Origin": "http://evil.127.0.0.1.example"},
    {"Origin": ATTACKER},  # a browser too old to send Sec-Fetch-Site
    {"Origin": "null"},  # a sandboxed frame, a data: page
], ids=["cross-site", "same-site", "origin-only", "null-origin"])
def test_a_post_with_basic_credentials_from_another_sites_page_is_refused(tmp_path: Path,
                                                                        headers: dict[str, str]) -> None:
    with running_server(tmp_path) as server:
        refused = Browser(server.url).post_multipart("/api/submissions", SUBMISSION, {**basic(KIM[0], KIM[2]),
                                                                                      **headers})
        assert refused.status == 403 and "another site" in refused.body
        assert Store(server.data).counts() == {}


def test_a_post_with_basic_credentials_from_a_script_or_this_servers_page_is_accepted(tmp_path: Path) -> None:
    with running_server(tmp_path) as server:
        own_origin = server.url.rstrip("/")
        for headers in ({}, {"Sec-Fetch-Site": "same-origin", "Origin": own_origin}, {"Origin": own_origin},
                        {"Sec-Fetch-Site": "none"}):
            created = Browser(server.url).post_multipart("/api/submissions", SUBMISSION,
                                                         {**basic(KIM[0], KIM[2]), **headers})
            assert created.status == 201, (headers, created.body)


@pytest.fixture
def chromium() -> Iterator[object]:
    with headless_chromium() as launched:
        yield launched


@pytest.mark.slow  # 3.1 s here: a server of its own (the default run keeps to ten minutes)
def test_another_sites_form_cannot_submit_with_the_basic_credentials_chromium_remembers(chromium: object,
                                                                                      tmp_path: Path) -> None:
    with running_server(tmp_path) as server:
        base = server.url.rstrip("/")
        page = chromium.new_context().new_page()  # type: ignore[attr-defined]
        host = base.removeprefix("http://")
        remembered = page.goto(f"http://{KIM[0]}:{KIM[2]}@{host}/api/submissions")  # the student's one visit
        assert remembered.status == 200
        again = page.goto(f"{base}/api/problems")  # no credentials in the address: Chromium sends its own
        assert again.status == 200 and again.request.all_headers().get("authorization", "").startswith("Basic ")

        form = (f'<form id="attack" method="post" enctype="multipart/form-data" action="{base}/api/submissions">'
                + "".join(f'<textarea name="{name}">{value}</textarea>' for name, value in SUBMISSION.items())
                + "</form>")
        page.route(f"{ATTACKER}/**", lambda route: route.fulfill(body=form, content_type="text/html"))
        page.goto(f"{ATTACKER}/")
        with page.expect_navigation() as navigation:
            page.evaluate("document.getElementById('attack').submit()")
        answer = navigation.value
        assert answer.status == 403 and "HTTP Basic credentials" in answer.text()  # Chromium did send them
        assert Store(server.data).counts() == {}
