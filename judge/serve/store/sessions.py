"""The browsers' sessions (auth.py says what a cookie holds; service.py opens and checks them)."""

from __future__ import annotations

from msgspec import Struct

from judge.serve.store.database import Database

SESSIONS_PER_USER = 16
"""Sessions one person keeps at once (a phone, a laptop, a lab machine, a few browsers): a script signing in again
and again ends its own oldest instead of filling the table."""
SESSIONS_SCHEMA = """
CREATE TABLE IF NOT EXISTS sessions (
    id             TEXT PRIMARY KEY,       -- an HMAC of the cookie's random id (auth.session_storage_id)
    user           TEXT NOT NULL,
    credential     TEXT NOT NULL,          -- auth.credential_fingerprint of what it signed in with
    csrf           TEXT NOT NULL,
    created_at     REAL NOT NULL,          -- Unix time
    seen_at        REAL NOT NULL           -- its latest request, to within SessionLifetimes.touch_seconds
);
CREATE INDEX IF NOT EXISTS sessions_by_user ON sessions (user, created_at);
CREATE INDEX IF NOT EXISTS sessions_by_seen_at ON sessions (seen_at);
CREATE INDEX IF NOT EXISTS sessions_by_created_at ON sessions (created_at);
"""


class SessionLifetimes(Struct, frozen=True):
    """How long a browser stays signed in: `idle_seconds` after its latest request, and `absolute_seconds` after it
    signed in, however busy it is."""

    idle_seconds: float = 2 * 3600
    absolute_seconds: float = 12 * 3600

    @property
    def touch_seconds(self) -> float:
        """A request records itself only when the session's latest one is older than this: a page polling every
        second does not write every second, and the idle lifetime still holds to within a sixtieth."""
        return self.idle_seconds / 60


class StoredSession(Struct, frozen=True):
    user: str
    credential: str
    csrf: str


class SessionRows(Database):
    def open_session(self, session_id: str, session: StoredSession, now: float, lifetimes: SessionLifetimes) -> None:
        """Store a new session; the expired ones go at the same time, and so do the user's oldest beyond
        `SESSIONS_PER_USER`, so the table holds about the live ones however often one person signs in."""
        with self._transaction() as connection:
            connection.execute(
                "DELETE FROM sessions WHERE seen_at <= ? OR created_at <= ?",
                (now - lifetimes.idle_seconds, now - lifetimes.absolute_seconds),
            )
            connection.execute(
                "INSERT INTO sessions (id, user, credential, csrf, created_at, seen_at) VALUES (?, ?, ?, ?, ?, ?)",
                (session_id, session.user, session.credential, session.csrf, now, now),
            )
            connection.execute(
                "DELETE FROM sessions WHERE user = ? AND id NOT IN"
                " (SELECT id FROM sessions WHERE user = ? ORDER BY created_at DESC, rowid DESC LIMIT ?)",
                (session.user, session.user, SESSIONS_PER_USER),
            )

    def session(self, session_id: str, now: float, lifetimes: SessionLifetimes) -> StoredSession | None:
        """The session, if it is still alive at `now` (and this request counts as its latest); None otherwise."""
        with self._connect() as connection:
            row = connection.execute(
                "SELECT user, credential, csrf, created_at, seen_at FROM sessions WHERE id = ?", (session_id,)
            ).fetchone()
            if row is None:
                return None
            if now - row["seen_at"] >= lifetimes.idle_seconds or now - row["created_at"] >= lifetimes.absolute_seconds:
                connection.execute("DELETE FROM sessions WHERE id = ?", (session_id,))
                return None
            if now - row["seen_at"] >= lifetimes.touch_seconds:
                connection.execute("UPDATE sessions SET seen_at = ? WHERE id = ?", (now, session_id))
        return StoredSession(row["user"], row["credential"], row["csrf"])

    def end_session(self, session_id: str) -> None:
        with self._connect() as connection:
            connection.execute("DELETE FROM sessions WHERE id = ?", (session_id,))
