"""Sign-in limits that a stranger cannot turn against the owner, and addresses the server does not take on trust,
against a real `judge serve`: two loopback addresses stand for two machines (127.0.0.1 and 127.0.0.2), and
X-Forwarded-For / X-Forwarded-Proto count only from a --trusted-proxy."""

from __future__ import annotations

import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Literal

import pytest
from argon2 import PasswordHasher

from conftest import assert_usage_error, judge_cli
from serve_fixtures import STUDENTS, running_server
from serve_http import Browser, basic

from judge.serve.auth import InFlight, Passwords
from judge.serve.roster import TEACHER_SECRET_FILE
from judge.serve.service import LOGIN_ATTEMPTS

KIM, LEE = STUDENTS[0], STUDENTS[1]
KIM_LOGIN, LEE_LOGIN = (KIM[0], KIM[2]), (LEE[0], LEE[2])
ALLOWED = LOGIN_ATTEMPTS[0]
STRANGER, OWNER = "127.0.0.2", "127.0.0.1"


def _attempts(url: str, source: str, credentials: list[tuple[str, str]],
              headers: list[dict[str, str]] | None = None) -> list[int]:
    """The status of each Basic sign-in, in order, from `source` (each with its own extra headers)."""
    extra = headers or [{}] * len(credentials)
    return [Browser(url, source).get("/api/problems", {**basic(*pair), **more}).status
            for pair, more in zip(credentials, extra, strict=True)]


def test_a_strangers_wrong_passwords_for_teacher_leave_the_teacher_free_elsewhere(tmp_path: Path) -> None:
    with running_server(tmp_path) as server:
        secret = (server.data / TEACHER_SECRET_FILE).read_text(encoding="utf-8").strip()
        guesses = _attempts(server.url, STRANGER, [("teacher", f"guess{n}") for n in range(ALLOWED + 5)])
        assert guesses == [401] * ALLOWED + [429] * 5
        assert _attempts(server.url, STRANGER, [("teacher", secret)]) == [429]  # the stranger's pair still waits

        teacher = Browser(server.url, OWNER)
        assert teacher.sign_in("teacher", secret).header("location") == "/teacher"
        assert teacher.get("/teacher").status == 200
        assert _attempts(server.url, OWNER, [("teacher", secret)]) == [200]


@pytest.mark.slow  # 16.5 s; test_serve_api's failures-for-other-ids test and the real addresses below cover it
def test_a_hundred_failures_from_one_address_refuse_no_other_student_behind_it(tmp_path: Path) -> None:
    """A lab behind one NAT: someone in it fails for many ids (and locks kim's pair), the others still sign in."""
    wrong = [(f"nobody{n}", "guess") for n in range(ALLOWED * 10)] + [(KIM[0], f"guess{n}") for n in range(ALLOWED)]
    with running_server(tmp_path) as server:
        with ThreadPoolExecutor(4) as pool:
            codes = list(pool.map(lambda pair: _attempts(server.url, STRANGER, [pair])[0], wrong))
        assert codes == [401] * len(wrong)
        assert _attempts(server.url, STRANGER, [KIM_LOGIN]) == [429]
        assert Browser(server.url, STRANGER).sign_in(*LEE_LOGIN).header("location") == "/"
        assert _attempts(server.url, STRANGER, [LEE_LOGIN] * 3) == [200] * 3
        assert _attempts(server.url, OWNER, [KIM_LOGIN]) == [200]


@pytest.mark.slow  # 5.7 s here: a server of its own (the default run keeps to ten minutes)
def test_forwarded_headers_are_not_believed_without_a_trusted_proxy(tmp_path: Path) -> None:
    with running_server(tmp_path) as server:
        # kim's pair at the stranger's address is locked; a request from the owner's machine naming that address
        # is still the owner's machine's
        _attempts(server.url, STRANGER, [(KIM[0], f"guess{n}") for n in range(ALLOWED)])
        assert _attempts(server.url, STRANGER, [KIM_LOGIN]) == [429]
        assert _attempts(server.url, OWNER, [KIM_LOGIN], [{"X-Forwarded-For": STRANGER}]) == [200]

        # a new X-Forwarded-For per guess is no new address: item 11's way past the limit
        forged = [{"X-Forwarded-For": f"10.0.{n}.1"} for n in range(ALLOWED + 2)]
        assert _attempts(server.url, OWNER, [(LEE[0], f"guess{n}") for n in range(ALLOWED + 2)],
                         forged) == [401] * ALLOWED + [429] * 2

        login = Browser(server.url, OWNER).get("/login", {"X-Forwarded-Proto": "https"})
        assert "judge_login=" in login.set_cookie("judge_login") and "secure" not in login.set_cookie(
            "judge_login").lower()


@pytest.mark.slow  # 5.3 s here: a server of its own (the default run keeps to ten minutes)
def test_forwarded_headers_count_from_a_trusted_proxy_only(tmp_path: Path) -> None:
    with running_server(tmp_path, "--trusted-proxy", f"192.0.2.0/24,{OWNER}") as server:
        # through the proxy (OWNER): each student's own address counts, whatever a client put before it
        through_proxy = [{"X-Forwarded-For": f"10.0.{n}.9, 10.0.0.1"} for n in range(ALLOWED + 2)]
        assert _attempts(server.url, OWNER, [(KIM[0], f"guess{n}") for n in range(ALLOWED + 2)],
                         through_proxy) == [401] * ALLOWED + [429] * 2
        assert _attempts(server.url, OWNER, [KIM_LOGIN], [{"X-Forwarded-For": "10.0.0.1"}]) == [429]
        assert _attempts(server.url, OWNER, [KIM_LOGIN], [{"X-Forwarded-For": "10.0.0.2"}]) == [200]

        # a machine that is not the proxy names addresses in vain
        _attempts(server.url, STRANGER, [(LEE[0], f"guess{n}") for n in range(ALLOWED)],
                  [{"X-Forwarded-For": f"10.1.{n}.1"} for n in range(ALLOWED)])
        assert _attempts(server.url, STRANGER, [LEE_LOGIN], [{"X-Forwarded-For": "10.2.0.1"}]) == [429]

        # the cookies are Secure when the proxy says the browser came over HTTPS
        https = {"X-Forwarded-Proto": "https", "X-Forwarded-For": "10.0.0.3"}
        student = Browser(server.url, OWNER)
        assert "secure" in student.get("/login", https).set_cookie("judge_login").lower()
        signed_in = student.sign_in(LEE[0], LEE[2], https)
        assert signed_in.status == 303 and "secure" in signed_in.set_cookie("judge_session").lower()
        plain = Browser(server.url, OWNER).get("/login", {"X-Forwarded-For": "10.0.0.4"})
        spoofed = Browser(server.url, STRANGER).get("/login", https)
        assert "secure" not in plain.set_cookie("judge_login").lower()
        assert "secure" not in spoofed.set_cookie("judge_login").lower()


def test_a_trusted_proxy_that_is_not_an_address_is_refused_in_one_line(tmp_path: Path) -> None:
    done = judge_cli("serve", tmp_path / "problems", "--roster", tmp_path / "roster.csv", "--trusted-proxy",
                     "127.0.0.1,proxy.lab")
    assert_usage_error(done, "--trusted-proxy 'proxy.lab'", "127.0.0.1")


class _CountingHasher(PasswordHasher):
    """argon2 at a test's cost that records how many of its hashes ran at once."""

    def __init__(self) -> None:
        super().__init__(time_cost=1, memory_cost=1024, parallelism=1)
        self.running = 0
        self.most = 0
        self._lock = threading.Lock()

    def verify(self, hash: str | bytes, password: str | bytes) -> Literal[True]:  # noqa: A002 (argon2's name)
        with self._lock:
            self.running += 1
            self.most = max(self.most, self.running)
        try:
            time.sleep(0.05)  # long enough for the other threads to pile in
            return super().verify(hash, password)
        finally:
            with self._lock:
                self.running -= 1


def test_a_stream_of_guesses_runs_one_hash_per_cpu_at_a_time() -> None:
    """Sign-ins are not refused per address, so a stranger's guesses must not run 40 argon2 hashes (64 MiB each) at
    once on the server's thread pool: they take turns."""
    hasher = _CountingHasher()
    passwords = Passwords(hasher, at_once=2)
    stored = hasher.hash("right")
    with ThreadPoolExecutor(max_workers=16) as pool:
        results = list(pool.map(lambda guess: passwords.verify(stored, guess), [f"guess{n}" for n in range(32)]))
    assert not any(results)
    assert hasher.most == 2


def test_one_address_keeps_a_bounded_number_of_sign_ins_going() -> None:
    """Past `limit` sign-ins under way from one address, the next is refused at once (429), another address is not,
    and the count ends with the calls (a bound on concurrency, never a lockout)."""
    in_flight = InFlight(2)
    with in_flight.entered("10.0.0.9") as first, in_flight.entered("10.0.0.9") as second:
        with in_flight.entered("10.0.0.9") as third, in_flight.entered("10.0.0.7") as elsewhere:
            assert (first, second, third, elsewhere) == (True, True, False, True)
    with in_flight.entered("10.0.0.9") as later:
        assert later
