"""Who is calling, and whether they may: password hashes, HTTP Basic, browser sessions, CSRF, rate limits.

Passwords are hashed with argon2id (memory-hard: a stolen database costs an attacker memory per guess, not only
time). Checking one takes tens of milliseconds of CPU, so a script sending HTTP Basic on every request would
make the server hash on every request: a password once verified is remembered, for this process only, as an
HMAC under a key that never leaves it (`VerifiedPasswords`), keyed with the stored hash so that a changed
password is checked again.

Browsers carry a session cookie (HttpOnly, SameSite=Strict) holding only a random id; the session itself lives in
the store (store/sessions.py),
under an HMAC of that id with DIR's session key, so the database holds no usable cookie and a
new key ends every session. It records a fingerprint of the credential it was opened with (a student's stored
hash, the teacher's secret): a changed password or a new teacher secret ends it too. Every form and every
script's POST carries the session's CSRF token; before signing in, the login form's token is a cookie of its own.

A browser that once answered the API's Basic challenge sends those credentials again by itself, even with another
site's form (Chromium does, as a cookie without SameSite): a POST with Basic credentials that a browser marks as
coming from another site is refused (`from_another_site`).

Sign-in attempts are limited per (id, address) pair, never per id or per address alone: a stranger's wrong
guesses then cost only the stranger, not the owner signing in from elsewhere, nor a class behind one address.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import os
import secrets
import threading
import time
from collections import OrderedDict, deque
from collections.abc import Iterator
from contextlib import contextmanager

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from msgspec import Struct

from judge.serve.roster import TEACHER_ID

CSRF_FIELD = "csrf"
CSRF_HEADER = "x-csrf-token"
SESSION_COOKIE = "judge_session"
LOGIN_COOKIE = "judge_login"
"""The login form's CSRF token before there is a session (its double-submitted copy)."""
SAME_ORIGIN_FETCHES = ("same-origin", "none")
"""Sec-Fetch-Site values of a request from this server's own pages, or typed by the person (no page at all)."""


class Caller(Struct, frozen=True):
    """A signed-in person: a student of the roster, or the teacher."""

    id: str
    name: str

    @property
    def teacher(self) -> bool:
        return self.id == TEACHER_ID


class Passwords:
    """argon2id hashing, by default at argon2-cffi's cost (RFC 9106's second recommendation: 3 passes over
    64 MiB). Each hash records its own parameters, so hashes of any cost verify.

    At most one hash per CPU runs at once (`at_once`): sign-in attempts are not limited per address (a lab behind
    one NAT must sign in), so a stranger's stream of them would otherwise run 40 hashes at a time on the server's
    thread pool, 2.5 GiB of memory and every CPU; now they wait their turn, and judging and pages go on."""

    def __init__(self, hasher: PasswordHasher | None = None, at_once: int | None = None) -> None:
        self._hasher = hasher or PasswordHasher()
        self._turns = threading.BoundedSemaphore(at_once or os.cpu_count() or 1)

    def hash(self, password: str) -> str:
        with self._turns:
            return self._hasher.hash(password)

    def verify(self, password_hash: str, password: str) -> bool:
        with self._turns:
            try:
                return self._hasher.verify(password_hash, password)
            except (VerificationError, InvalidHashError):
                return False


class InFlight:
    """At most `limit` calls per key under way at once (thread-safe): a bound on what one address keeps going,
    which unlike a count of failures never outlives the calls themselves."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self._running: dict[str, int] = {}
        self._lock = threading.Lock()

    @contextmanager
    def entered(self, key: str) -> Iterator[bool]:
        """Whether the call for `key` may go on now (it counts until the block ends)."""
        with self._lock:
            admitted = self._running.get(key, 0) < self.limit
            if admitted:
                self._running[key] = self._running.get(key, 0) + 1
        try:
            yield admitted
        finally:
            if admitted:
                with self._lock:
                    self._running[key] -= 1
                    if not self._running[key]:
                        del self._running[key]


class VerifiedPasswords:
    """The (id, stored hash, password) triples this process already verified, as HMACs (see the module's
    docstring)."""

    def __init__(self) -> None:
        self._key = secrets.token_bytes(32)
        self._known: set[bytes] = set()
        self._lock = threading.Lock()

    def _tag(self, student_id: str, password_hash: str, password: str) -> bytes:
        message = f"{student_id}\0{password_hash}\0{password}".encode("utf-8", "surrogatepass")
        return hmac.new(self._key, message, hashlib.sha256).digest()

    def known(self, student_id: str, password_hash: str, password: str) -> bool:
        with self._lock:
            return self._tag(student_id, password_hash, password) in self._known

    def remember(self, student_id: str, password_hash: str, password: str) -> None:
        with self._lock:
            self._known.add(self._tag(student_id, password_hash, password))


class BrowserSession(Struct, frozen=True):
    """A signed-in browser: who, and the CSRF token its forms and scripts carry."""

    caller: Caller
    csrf: str


def new_session_id() -> str:
    return secrets.token_urlsafe(32)


def session_storage_id(session_key: str, session_id: str) -> str:
    """The store's key of the session whose cookie holds `session_id` (see the module's docstring)."""
    return _mac(session_key, "session", session_id)


def credential_fingerprint(session_key: str, user: str, proof: str) -> str:
    """What the store keeps of the credential `user` signed in with (a stored hash, the teacher's secret)."""
    return _mac(session_key, "credential", user, proof)


def _mac(key: str, *parts: str) -> str:
    message = "\0".join(parts).encode("utf-8", "surrogatepass")
    return hmac.new(key.encode("utf-8", "surrogatepass"), message, hashlib.sha256).hexdigest()


def from_another_site(sec_fetch_site: str | None, origin: str | None, own_origin: str) -> bool:
    """Whether a browser says the request comes from another site's page: its Sec-Fetch-Site, or where a browser
    sends none (older ones), its Origin. Scripts (curl, `judge submit`) send neither."""
    if sec_fetch_site is not None:
        return sec_fetch_site.strip().lower() not in SAME_ORIGIN_FETCHES
    return origin is not None and origin.strip().lower() != own_origin.lower()


def basic_credentials(header: str) -> tuple[str, str] | None:
    """(id, password) of an `Authorization: Basic ...` header, None when it is not one."""
    scheme, _, encoded = header.partition(" ")
    if scheme.lower() != "basic" or not encoded:
        return None
    try:
        decoded = base64.b64decode(encoded.strip(), validate=True).decode("utf-8")
    except (binascii.Error, UnicodeDecodeError):
        return None
    user, colon, password = decoded.partition(":")
    return (user, password) if colon else None


def same_secret(given: str, expected: str) -> bool:
    """Constant-time comparison, so the time taken says nothing about how much of a secret was right."""
    return hmac.compare_digest(given.encode("utf-8", "surrogatepass"), expected.encode("utf-8", "surrogatepass"))


def new_csrf_token() -> str:
    return secrets.token_urlsafe(24)


class RateLimiter:
    """At most `limit` events per key in any `window_seconds` (a sliding window); thread-safe. A key with no event
    left in the window is dropped, so keys a stranger makes up (ids, addresses) cost memory only for a window."""

    def __init__(self, limit: int, window_seconds: float) -> None:
        self.limit = limit
        self.window_seconds = window_seconds
        self._events: OrderedDict[str, deque[float]] = OrderedDict()
        """Keys in the order of their latest event, so the stale ones are at the front."""
        self._lock = threading.Lock()

    def retry_after(self, key: str) -> float:
        """0 when an event for `key` is allowed now (and counts it), else the seconds until one is."""
        now = time.monotonic()
        with self._lock:
            self._drop_stale(now)
            events = self._events.setdefault(key, deque())
            while events and events[0] <= now - self.window_seconds:
                events.popleft()
            if len(events) >= self.limit:
                return events[0] + self.window_seconds - now
            events.append(now)
            self._events.move_to_end(key)
            return 0.0

    def give_back(self, key: str) -> None:
        """Uncount the latest event for `key`: what it allowed did not happen (a submission refused after all)."""
        with self._lock:
            events = self._events.get(key)
            if events:
                events.pop()

    def forget(self, key: str) -> None:
        with self._lock:
            self._events.pop(key, None)

    def _drop_stale(self, now: float) -> None:
        while self._events:
            key, events = next(iter(self._events.items()))
            if events and events[-1] > now - self.window_seconds:
                return
            del self._events[key]
