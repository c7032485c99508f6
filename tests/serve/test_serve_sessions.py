"""Browser sessions live in the store, and end when they should: a cookie replayed after signing out, after a
restart with a new session key, after the roster changed a student's password, or after a new teacher secret signs
no one in; a session also ends when idle too long, and after its absolute lifetime however busy it is (the store's
expiry with an injected clock, and the server's pages over a clock the test moves)."""

from __future__ import annotations

import base64
import binascii
import re
import sqlite3
from pathlib import Path

import pytest
from serve_fixtures import STUDENTS, make_context, running_server, write_roster
from serve_http import Browser, basic
from starlette.testclient import TestClient

from judge.serve.app import create_app
from judge.serve.roster import SESSION_KEY_FILE, TEACHER_SECRET_FILE
from judge.serve.store import SESSIONS_PER_USER, SessionLifetimes, Store, StoredSession

KIM, LEE = STUDENTS[0], STUDENTS[1]


def _replayed(url: str, cookies: dict[str, str]) -> Browser:
    """Another browser holding a copy of these cookies (an attacker who copied them, or the same one later)."""
    return Browser(url, cookies=dict(cookies))


def _decodings(value: str) -> list[bytes]:
    """The cookie as it might carry data: itself, and each of its dot-separated parts base64-decoded."""
    found = [value.encode()]
    for part in value.split("."):
        try:
            found.append(base64.urlsafe_b64decode(part + "=" * (-len(part) % 4)))
        except (binascii.Error, ValueError):
            pass
    return found


def test_a_cookie_replayed_after_signing_out_signs_no_one_in(tmp_path: Path) -> None:
    with running_server(tmp_path) as server:
        kim = Browser(server.url)
        assert kim.sign_in(KIM[0], KIM[2]).status == 303
        copied = dict(kim.cookies)
        token = kim.get("/").meta_csrf()
        assert _replayed(server.url, copied).signed_in()  # the copy works while the session lives

        signed_out = kim.post_form("/logout", {"csrf": token})
        assert signed_out.status == 303 and not kim.signed_in()
        replay = _replayed(server.url, copied)
        assert not replay.signed_in()
        assert replay.get("/api/submissions").status == 401
        assert replay.post_multipart("/api/submissions", {"problem": "sum", "code": "print(3)"},
                                     {"X-CSRF-Token": token}).status == 401


@pytest.mark.slow  # 4.8 s here: a server of its own (the default run keeps to ten minutes)
def test_the_cookie_is_a_bare_id_that_a_restart_keeps_and_a_new_session_key_ends(tmp_path: Path) -> None:
    with running_server(tmp_path) as server:
        kim = Browser(server.url)
        assert kim.sign_in(KIM[0], KIM[2]).status == 303
        token = kim.get("/").meta_csrf()
    cookie = kim.cookies["judge_session"]
    assert not any(KIM[0].encode() in decoded or token.encode() in decoded for decoded in _decodings(cookie))

    with running_server(tmp_path) as server:  # the same data folder, the same key: students stay signed in
        kim.url = server.url
        assert kim.signed_in()
    (server.data / SESSION_KEY_FILE).unlink()  # the teacher's way to sign everyone out
    with running_server(tmp_path) as server:
        kim.url = server.url
        assert not kim.signed_in()
        assert kim.get("/api/submissions").status == 401


@pytest.mark.slow  # 4.0 s here: a server of its own (the default run keeps to ten minutes)
def test_a_password_changed_in_the_roster_ends_that_students_sessions_at_the_restart(tmp_path: Path) -> None:
    with running_server(tmp_path) as server:
        kim, lee = Browser(server.url), Browser(server.url)
        assert kim.sign_in(KIM[0], KIM[2]).status == 303 and lee.sign_in(LEE[0], LEE[2]).status == 303
    write_roster(tmp_path / "roster.csv", ((KIM[0], KIM[1], "kims-new-password"), LEE))
    with running_server(tmp_path) as server:
        kim.url = lee.url = server.url
        assert not kim.signed_in()
        assert lee.signed_in()  # an unchanged password keeps its session
        assert kim.get("/api/submissions", basic(KIM[0], "kims-new-password")).status == 200


@pytest.mark.slow  # 3.5 s here: a server of its own (the default run keeps to ten minutes)
def test_a_new_teacher_secret_ends_the_teachers_sessions(tmp_path: Path) -> None:
    with running_server(tmp_path) as server:
        secret = (server.data / TEACHER_SECRET_FILE).read_text(encoding="utf-8").strip()
        teacher, kim = Browser(server.url), Browser(server.url)
        assert teacher.sign_in("teacher", secret).header("location") == "/teacher"
        assert kim.sign_in(KIM[0], KIM[2]).status == 303
    (server.data / TEACHER_SECRET_FILE).unlink()  # a new one is made at the start
    with running_server(tmp_path) as server:
        teacher.url = kim.url = server.url
        assert not teacher.signed_in()
        assert teacher.get("/teacher").status == 303
        assert kim.signed_in()
        new_secret = (server.data / TEACHER_SECRET_FILE).read_text(encoding="utf-8").strip()
        assert new_secret != secret and Browser(server.url).sign_in("teacher", new_secret).status == 303


# expiry, with the clock in the test's hands ------------------------------------------------------------------------

LIFETIMES = SessionLifetimes(idle_seconds=600, absolute_seconds=3600)


@pytest.fixture
def store(tmp_path: Path) -> Store:
    store = Store(tmp_path)
    store.create()
    return store


def test_an_idle_session_ends_and_one_in_use_lives_until_its_absolute_lifetime(store: Store) -> None:
    kept = StoredSession("kim", "credential", "csrf")
    store.open_session("idle", kept, 1000.0, LIFETIMES)
    store.open_session("busy", kept, 1000.0, LIFETIMES)
    assert store.session("idle", 1000.0 + 599, LIFETIMES) == kept
    assert store.session("idle", 1000.0 + 599 + 600, LIFETIMES) is None  # 600 s after its latest request
    assert store.session("idle", 1000.0 + 599, LIFETIMES) is None  # ended for good, whatever the clock says

    alive = [store.session("busy", 1000.0 + 500 * n, LIFETIMES) is not None for n in range(1, 9)]
    assert alive == [True] * 7 + [False]  # a request every 500 s: alive until 3600 s after signing in


def test_a_polled_session_is_written_once_a_touch_interval_not_at_every_poll(store: Store) -> None:
    store.open_session("polled", StoredSession("kim", "c", "t"), 0.0, LIFETIMES)

    def seen_at() -> float:
        return float(sqlite3.connect(store.path).execute("SELECT seen_at FROM sessions").fetchone()[0])

    step = LIFETIMES.touch_seconds / 4
    writes = 0
    for n in range(1, 41):
        before = seen_at()
        assert store.session("polled", n * step, LIFETIMES) is not None
        writes += seen_at() != before
    assert writes == 10


def test_opening_a_session_sweeps_the_expired_ones(store: Store) -> None:
    for n in range(5):
        store.open_session(f"old{n}", StoredSession("kim", "c", "t"), 0.0, LIFETIMES)
    store.open_session("new", StoredSession("lee", "c", "t"), LIFETIMES.idle_seconds + 1, LIFETIMES)
    rows = sqlite3.connect(store.path).execute("SELECT id FROM sessions").fetchall()
    assert rows == [("new",)]


def test_one_person_signing_in_again_and_again_keeps_a_bounded_number_of_sessions(store: Store) -> None:
    """The second review: a script signing in 1,692 times in 10 s kept 1,692 live sessions (1.2 M in their 2 hours).
    A person keeps the newest SESSIONS_PER_USER; signing in once more ends the oldest, and nobody else's."""
    store.open_session("lee's", StoredSession("lee", "c", "t"), 0.0, LIFETIMES)
    for n in range(SESSIONS_PER_USER + 5):
        store.open_session(f"kim{n}", StoredSession("kim", "c", "t"), float(n), LIFETIMES)
    now = float(SESSIONS_PER_USER + 5)
    alive = [n for n in range(SESSIONS_PER_USER + 5) if store.session(f"kim{n}", now, LIFETIMES) is not None]
    assert alive == list(range(5, SESSIONS_PER_USER + 5))
    assert store.session("lee's", now, LIFETIMES) is not None


def test_the_pages_sign_out_an_idle_browser_and_one_past_its_lifetime(tmp_path: Path) -> None:
    """The server's own clock and lifetimes reach the store (the context's, moved by the test)."""
    now = [1_000_000.0]
    context = make_context(tmp_path)
    context.clock, context.lifetimes = (lambda: now[0]), LIFETIMES
    client = TestClient(create_app(context), base_url="http://127.0.0.1")
    page = client.get("/login").text
    token = re.search(r'name="csrf" value="([^"]+)"', page).group(1)  # type: ignore[union-attr]
    assert client.post("/login", data={"csrf": token, "id": KIM[0], "password": KIM[2]},
                       follow_redirects=False).status_code == 303

    for _ in range(6):  # in use every 599 s: alive past the idle lifetime, up to the absolute one
        now[0] += 599
        assert client.get("/", follow_redirects=False).status_code == 200
    now[0] += 599  # 4193 s after signing in
    assert client.get("/", follow_redirects=False).headers["location"] == "/login"

    assert client.post("/login", data={"csrf": token, "id": KIM[0], "password": KIM[2]},
                       follow_redirects=False).status_code == 303
    now[0] += LIFETIMES.idle_seconds
    assert client.get("/", follow_redirects=False).headers["location"] == "/login"
