"""The data folder's database (`--data DIR/serve.sqlite`): students, submissions, settings, announcements, and
the browsers' sessions.

Both processes of `judge serve` open it: the web server stores submissions, the judging process claims and
finishes them, and a local worker writes a submission's progress (`record_progress`). It is the one module of
serve/ that speaks SQL (tests/test_import_graph.py). WAL mode lets pages read while a result is written;
`synchronous=FULL` on a new submission's commit makes it survive a power cut, so once the server has answered 201
the submission is on disk.

Each thread keeps one connection and reuses it: opening one costs about half a millisecond of CPU (the file, the
WAL index, the schema parsed again), which was half of what a page or a poll cost the server, and under a full
judging load that CPU is what is short. Every statement still runs in its own transaction (autocommit, or one
BEGIN IMMEDIATE ... COMMIT), so a kept connection holds no lock and no snapshot between calls.

A submission moves queued -> judging -> done. `claim` is a token made anew for each claim (the judging process's
name and a random part): a result is written only `WHERE claim = ?`, so after a crash, a restart or a rejudge
(each of which clears claims), a result of an older run changes nothing, even when the same judging process has
claimed the submission again meanwhile, and every submission ends with exactly one result: the latest claim's.
"""

from __future__ import annotations

import json
import secrets
import sqlite3
import threading
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Literal

from judge.batch.tasks import SubmissionOutcome
from judge.judging.results import SubmissionResult
from judge.verdicts import Verdict

DATABASE_NAME = "serve.sqlite"
SCHEMA_VERSION = 1
BUSY_TIMEOUT_MS = 10_000
PROGRESS_BUSY_SECONDS = 0.2
"""How long a progress write waits for a busy database: progress is a courtesy, a test must not wait on it."""
Status = Literal["queued", "judging", "done"]
SESSIONS_PER_USER = 16
"""Sessions one person keeps at once (a phone, a laptop, a lab machine, a few browsers): a script signing in again
and again ends its own oldest instead of filling the table."""
PROBLEMS_EPOCH = "problems_epoch"
"""The settings key the server changes to make the judging process read the problems again."""

_SCHEMA = """
CREATE TABLE IF NOT EXISTS students (
    id             TEXT PRIMARY KEY,
    name           TEXT NOT NULL,
    password_hash  TEXT NOT NULL           -- argon2id, as auth.py writes it
);
CREATE TABLE IF NOT EXISTS submissions (
    id             INTEGER PRIMARY KEY AUTOINCREMENT,
    student        TEXT NOT NULL,
    problem_id     TEXT NOT NULL,
    language       TEXT NOT NULL,          -- a key of the language table
    file_name      TEXT NOT NULL,          -- as uploaded (or main.<ext> for pasted code); its extension is shown
    source         BLOB NOT NULL,
    submitted_at   REAL NOT NULL,          -- Unix time
    status         TEXT NOT NULL,          -- queued | judging | done
    claim          TEXT,                   -- the judging process holding it (judging only)
    progress       TEXT,                   -- while judged: "compiling", "test k of n" (progress.py)
    verdict        TEXT,                   -- Verdict.short once done
    tests_passed   INTEGER,
    result_json    TEXT,                   -- SubmissionResult.to_dict() (full feedback); NULL when not judged;
                                           -- its not_run: the tests after a fail-fast stop
    error          TEXT,                   -- why it could not be judged (JE), else empty
    worker         TEXT,
    judge_version  TEXT,
    judged_at      REAL                    -- when the result reached the database
);
CREATE INDEX IF NOT EXISTS submissions_by_status ON submissions (status, student);
CREATE INDEX IF NOT EXISTS submissions_by_student ON submissions (student, problem_id);
CREATE TABLE IF NOT EXISTS settings (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS announcements (id INTEGER PRIMARY KEY AUTOINCREMENT, text TEXT NOT NULL,
                                          posted_at REAL NOT NULL);
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

_COLUMNS = (
    "id, student, problem_id, language, file_name, submitted_at, status, progress, verdict, tests_passed, "
    "result_json, error, worker, judged_at"
)


@dataclass(frozen=True)
class Student:
    id: str
    name: str
    password_hash: str


@dataclass(frozen=True)
class StoredSubmission:
    """A submission row without its source (pages list many; `Store.source` reads one source)."""

    id: int
    student: str
    problem_id: str
    language: str
    file_name: str
    submitted_at: float
    status: Status
    progress: str
    """While judged: "compiling", "test k of n" (empty before the worker says, and once done)."""
    verdict: Verdict | None
    tests_passed: int | None
    result_json: str | None
    error: str
    worker: str
    judged_at: float | None

    @cached_property
    def result(self) -> SubmissionResult | None:
        """The full result (parsed on first use: lists and the scoreboard rarely need it)."""
        return SubmissionResult.from_dict(json.loads(self.result_json)) if self.result_json else None

    @classmethod
    def of_row(cls, row: sqlite3.Row) -> StoredSubmission:
        return cls(
            id=row["id"],
            student=row["student"],
            problem_id=row["problem_id"],
            language=row["language"],
            file_name=row["file_name"],
            submitted_at=row["submitted_at"],
            status=row["status"],
            progress=row["progress"] or "" if row["status"] == "judging" else "",
            verdict=Verdict.from_short(row["verdict"]) if row["verdict"] else None,
            tests_passed=row["tests_passed"],
            result_json=row["result_json"],
            error=row["error"] or "",
            worker=row["worker"] or "",
            judged_at=row["judged_at"],
        )


@dataclass(frozen=True)
class Claimed:
    """A submission a judging process now holds: its row, its source, and the token only this claim carries."""

    submission: StoredSubmission
    source: bytes
    token: str


@dataclass(frozen=True)
class NewSubmission:
    student: str
    problem_id: str
    language: str
    file_name: str
    source: bytes


@dataclass(frozen=True)
class SessionLifetimes:
    """How long a browser stays signed in: `idle_seconds` after its latest request, and `absolute_seconds` after it
    signed in, however busy it is."""

    idle_seconds: float = 2 * 3600
    absolute_seconds: float = 12 * 3600

    @property
    def touch_seconds(self) -> float:
        """A request records itself only when the session's latest one is older than this: a page polling every
        second does not write every second, and the idle lifetime still holds to within a sixtieth."""
        return self.idle_seconds / 60


@dataclass(frozen=True)
class StoredSession:
    user: str
    credential: str
    csrf: str


@dataclass(frozen=True)
class Announcement:
    """The teacher's line on every page: posted at `posted_at`, edited or removed by `id`."""

    id: int
    posted_at: float
    text: str


@dataclass(frozen=True)
class Filters:
    """The teacher's filters on the submission list; None lets everything through."""

    student: str | None = None
    problem_id: str | None = None
    verdict: str | None = None


class Store:
    """The database under `data_dir`. Any thread may use one `Store`: each thread gets its own connection, kept
    for the next call (see the module's docstring); a process makes its own `Store`."""

    def __init__(self, data_dir: Path) -> None:
        self.path = data_dir / DATABASE_NAME
        self._local = threading.local()

    def create(self) -> None:
        """Create the tables (once); refuse a database of another schema."""
        with self._connect() as connection:
            version = connection.execute("PRAGMA user_version").fetchone()[0]
            if version not in (0, SCHEMA_VERSION):
                raise sqlite3.DatabaseError(f"schema {version}, not {SCHEMA_VERSION}")
            connection.execute("PRAGMA journal_mode=WAL")
            connection.executescript(_SCHEMA)
            connection.execute(f"PRAGMA user_version={SCHEMA_VERSION}")

    @contextmanager
    def _connect(self, *, durable: bool = False) -> Iterator[sqlite3.Connection]:
        """This thread's connection; `durable` commits survive a power cut (synchronous=FULL: the WAL is synced
        at each commit). Every commit survives the process being killed either way; only a new submission pays
        for the sync, since any other write that a power cut loses is redone (a claim released, a result judged
        again)."""
        connection: sqlite3.Connection | None = getattr(self._local, "connection", None)
        if connection is None:
            connection = sqlite3.connect(self.path, timeout=BUSY_TIMEOUT_MS / 1000, isolation_level=None)
            connection.row_factory = sqlite3.Row
            connection.execute("PRAGMA synchronous=NORMAL")
            self._local.connection = connection
        if not durable:
            yield connection
            return
        connection.execute("PRAGMA synchronous=FULL")
        try:
            yield connection
        finally:
            connection.execute("PRAGMA synchronous=NORMAL")

    def close(self) -> None:
        """Close this thread's connection (the next call opens another); other threads' close with them."""
        connection = getattr(self._local, "connection", None)
        if connection is not None:
            self._local.connection = None
            connection.close()

    @contextmanager
    def _transaction(self, *, durable: bool = False) -> Iterator[sqlite3.Connection]:
        """BEGIN IMMEDIATE ... COMMIT: read-then-write steps (the cap check, a claim) see no interleaved writer."""
        with self._connect(durable=durable) as connection:
            connection.execute("BEGIN IMMEDIATE")
            try:
                yield connection
                connection.execute("COMMIT")
            finally:
                if connection.in_transaction:  # the kept connection must not stay inside a failed transaction
                    connection.execute("ROLLBACK")

    # students -------------------------------------------------------------------------------------------------

    def student(self, student_id: str) -> Student | None:
        with self._connect() as connection:
            row = connection.execute(
                "SELECT id, name, password_hash FROM students WHERE id = ?", (student_id,)
            ).fetchone()
        return Student(row["id"], row["name"], row["password_hash"]) if row is not None else None

    def students(self) -> dict[str, Student]:
        with self._connect() as connection:
            rows = connection.execute("SELECT id, name, password_hash FROM students ORDER BY id").fetchall()
        return {row["id"]: Student(row["id"], row["name"], row["password_hash"]) for row in rows}

    def put_students(self, students: Sequence[Student]) -> None:
        """Make `students` the whole class: insert or update each (a roster edited between runs updates names and
        passwords); a student no longer listed can no longer sign in (their submissions stay)."""
        with self._transaction() as connection:
            connection.execute("CREATE TEMP TABLE IF NOT EXISTS listed (id TEXT PRIMARY KEY)")
            connection.execute("DELETE FROM listed")
            connection.executemany("INSERT INTO listed VALUES (?)", [(student.id,) for student in students])
            connection.execute("DELETE FROM students WHERE id NOT IN (SELECT id FROM listed)")
            connection.executemany(
                "INSERT INTO students VALUES (?, ?, ?) ON CONFLICT (id) DO UPDATE SET name=excluded.name,"
                " password_hash=excluded.password_hash",
                [(student.id, student.name, student.password_hash) for student in students],
            )

    # submissions ----------------------------------------------------------------------------------------------

    def add_submission(self, new: NewSubmission, max_pending: int) -> int | None:
        """Store `new` as queued and commit (durably) before returning its id; None, storing nothing, when its
        student already has `max_pending` submissions waiting or being judged."""
        with self._transaction(durable=True) as connection:
            pending = connection.execute(
                "SELECT COUNT(*) FROM submissions WHERE student = ? AND status != 'done'", (new.student,)
            ).fetchone()[0]
            if pending >= max_pending:
                return None
            cursor = connection.execute(
                "INSERT INTO submissions (student, problem_id, language, file_name, source, submitted_at, status)"
                " VALUES (?, ?, ?, ?, ?, ?, 'queued')",
                (new.student, new.problem_id, new.language, new.file_name, new.source, time.time()),
            )
            return int(cursor.lastrowid or 0)

    def submission(self, submission_id: int) -> StoredSubmission | None:
        with self._connect() as connection:
            row = connection.execute(f"SELECT {_COLUMNS} FROM submissions WHERE id = ?", (submission_id,)).fetchone()
        return StoredSubmission.of_row(row) if row is not None else None

    def source(self, submission_id: int) -> bytes:
        with self._connect() as connection:
            row = connection.execute("SELECT source FROM submissions WHERE id = ?", (submission_id,)).fetchone()
        return bytes(row["source"]) if row is not None else b""

    def submissions(self, filters: Filters = Filters()) -> list[StoredSubmission]:
        """Matching submissions, newest first."""
        clauses: list[str] = []
        values: list[str] = []
        for column, value in (
            ("student", filters.student),
            ("problem_id", filters.problem_id),
            ("verdict", filters.verdict),
        ):
            if value:
                clauses.append(f"{column} = ?")
                values.append(value)
        where = f"WHERE {' AND '.join(clauses)}" if clauses else ""
        with self._connect() as connection:
            rows = connection.execute(f"SELECT {_COLUMNS} FROM submissions {where} ORDER BY id DESC", values).fetchall()
        return [StoredSubmission.of_row(row) for row in rows]

    def counts(self) -> dict[str, int]:
        """How many submissions are in each status (for the judging process's idle check and the benchmark)."""
        with self._connect() as connection:
            rows = connection.execute("SELECT status, COUNT(*) AS n FROM submissions GROUP BY status").fetchall()
        return {row["status"]: row["n"] for row in rows}

    def claim(self, submission_ids: Sequence[int], judging_process: str) -> list[Claimed]:
        """Mark the still-queued ones among `submission_ids` as judged, each under a new token of
        `judging_process`'s: a rejudge that queues one again voids the token of the run still going."""
        if not submission_ids:  # the idle judging process asks 20 times a second: no write lock for nothing
            return []
        claimed = []
        with self._transaction() as connection:
            for submission_id in submission_ids:
                token = f"{judging_process}/{secrets.token_hex(8)}"
                taken = connection.execute(
                    "UPDATE submissions SET status = 'judging', claim = ? WHERE id = ? AND status = 'queued'",
                    (token, submission_id),
                ).rowcount
                if taken:
                    row = connection.execute(
                        f"SELECT {_COLUMNS}, source FROM submissions WHERE id = ?", (submission_id,)
                    ).fetchone()
                    claimed.append(Claimed(StoredSubmission.of_row(row), bytes(row["source"]), token))
        return claimed

    def finish(self, submission_id: int, token: str, outcome: SubmissionOutcome) -> bool:
        """Store `outcome` if the claim `token` still holds the submission; whether it did."""
        result_json = json.dumps(outcome.result.to_dict()) if outcome.result is not None else None
        with self._transaction() as connection:
            return bool(
                connection.execute(
                    "UPDATE submissions SET status = 'done', claim = NULL, progress = NULL, verdict = ?,"
                    " tests_passed = ?,"
                    " result_json = ?, error = ?, worker = ?, judge_version = ?, judged_at = ?"
                    " WHERE id = ? AND claim = ? AND status = 'judging'",
                    (
                        outcome.verdict.short,
                        outcome.tests_passed,
                        result_json,
                        outcome.error,
                        outcome.worker,
                        outcome.judge_version,
                        time.time(),
                        submission_id,
                        token,
                    ),
                ).rowcount
            )

    def release_claims(self) -> int:
        """Put every submission being judged back in the queue (a judging process starts, or was lost)."""
        with self._transaction() as connection:
            return connection.execute(
                "UPDATE submissions SET status = 'queued', claim = NULL, progress = NULL WHERE status = 'judging'"
            ).rowcount

    def requeue(self, *, submission_id: int | None = None, problem_id: str | None = None) -> int:
        """Rejudge: one submission, a problem's, or (neither given) every one; their results are cleared."""
        clauses: list[str] = []
        values: list[int | str] = []
        if submission_id is not None:
            clauses.append("id = ?")
            values.append(submission_id)
        if problem_id is not None:
            clauses.append("problem_id = ?")
            values.append(problem_id)
        where = f"WHERE {' AND '.join(clauses)}" if clauses else ""
        with self._transaction() as connection:
            return connection.execute(
                "UPDATE submissions SET status = 'queued', claim = NULL, progress = NULL, verdict = NULL,"
                " tests_passed = NULL, result_json = NULL, error = NULL, worker = NULL, judged_at = NULL"
                f" {where}",
                values,
            ).rowcount

    def queued_in_fair_order(self, limit: int) -> list[int]:
        """Up to `limit` queued submission ids, fairly: a student's k-th waiting submission (counting those being
        judged) comes after everyone's (k-1)-th, and ties go to the earlier submission."""
        with self._connect() as connection:
            rows = connection.execute(
                "WITH busy AS (SELECT student, COUNT(*) AS n FROM submissions WHERE status = 'judging'"
                "              GROUP BY student),"
                "     waiting AS (SELECT id, student,"
                "                 ROW_NUMBER() OVER (PARTITION BY student ORDER BY id) AS turn"
                "                 FROM submissions WHERE status = 'queued')"
                " SELECT waiting.id FROM waiting LEFT JOIN busy USING (student)"
                " ORDER BY waiting.turn + COALESCE(busy.n, 0), waiting.id LIMIT ?",
                (limit,),
            ).fetchall()
        return [row["id"] for row in rows]

    # settings and announcements -------------------------------------------------------------------------------

    def settings(self) -> dict[str, str]:
        with self._connect() as connection:
            return {row["key"]: row["value"] for row in connection.execute("SELECT key, value FROM settings")}

    def put_settings(self, values: dict[str, str]) -> None:
        with self._transaction() as connection:
            connection.executemany(
                "INSERT INTO settings VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value=excluded.value",
                list(values.items()),
            )

    def announce(self, text: str) -> None:
        with self._transaction() as connection:
            connection.execute("INSERT INTO announcements (text, posted_at) VALUES (?, ?)", (text, time.time()))

    def announcements(self) -> list[Announcement]:
        """Newest first."""
        with self._connect() as connection:
            rows = connection.execute("SELECT id, posted_at, text FROM announcements ORDER BY id DESC").fetchall()
        return [Announcement(row["id"], row["posted_at"], row["text"]) for row in rows]

    def edit_announcement(self, announcement_id: int, text: str) -> bool:
        """Replace its text (it keeps its time); False when there is no such announcement."""
        with self._transaction() as connection:
            cursor = connection.execute("UPDATE announcements SET text = ? WHERE id = ?", (text, announcement_id))
        return cursor.rowcount == 1

    def remove_announcement(self, announcement_id: int) -> bool:
        """False when there is no such announcement."""
        with self._transaction() as connection:
            cursor = connection.execute("DELETE FROM announcements WHERE id = ?", (announcement_id,))
        return cursor.rowcount == 1

    # sessions -------------------------------------------------------------------------------------------------

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


def record_progress(database: Path, submission_id: int, claim: str, phase: str) -> None:
    """Write `phase` if `claim` still judges the submission; silently nothing when the database is not there or
    busy. A function, not a `Store` method: it runs in a pool worker between tests (progress.py), on a connection
    of its own that waits at most PROGRESS_BUSY_SECONDS and never creates the file (`mode=rw`)."""
    try:
        connection = sqlite3.connect(f"{database.resolve().as_uri()}?mode=rw", uri=True, timeout=PROGRESS_BUSY_SECONDS)
    except (sqlite3.Error, OSError, ValueError):
        return
    try:
        with connection:
            connection.execute(
                "UPDATE submissions SET progress = ? WHERE id = ? AND claim = ? AND status = 'judging'",
                (phase, submission_id, claim),
            )
    except sqlite3.Error:
        return
    finally:
        connection.close()
