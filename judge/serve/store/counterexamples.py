"""Counterexample requests: a student asks for a small input on which their WA submission fails; the judging
process searches for one (serve/counterexamples.py) and stores what it found.

A request moves queued -> searching -> done, like a submission, under a claim token made anew for each claim: a
result is written only `WHERE claim = ?`, so after a crash or a restart (which releases every claim) or a claim
given back to make room for a submission, an older search's result changes nothing and every request ends with
exactly one result. A request is claimed only in the same transaction that sees no submission queued, so it never
takes a worker a submission is waiting for. Asking is bounded in the same transaction that stores the request:
at most one pending per student, and `per_hour` per student in any hour.
"""

from __future__ import annotations

import secrets
import sqlite3
import time
from pathlib import Path
from typing import Literal

from msgspec import Struct

from judge.serve.store.database import Database

HOUR_SECONDS = 3600.0
CLAIM_CHECK_BUSY_SECONDS = 0.2
"""How long a search's check of its own claim waits for a busy database (it asks again after its next trial)."""
CounterexampleStatus = Literal["queued", "searching", "done"]
Found = Literal["found", "none", "failed"]
"""found: an input it fails on; none: no generated input failed within the bounds; failed: the search could not
run (why is in `message`)."""

COUNTEREXAMPLES_SCHEMA = """
CREATE TABLE IF NOT EXISTS counterexamples (
    id             INTEGER PRIMARY KEY AUTOINCREMENT,
    submission_id  INTEGER NOT NULL,
    student        TEXT NOT NULL,
    problem_id     TEXT NOT NULL,
    requested_at   REAL NOT NULL,          -- Unix time
    status         TEXT NOT NULL,          -- queued | searching | done
    claim          TEXT,                   -- the judging process's search holding it (searching only)
    found          TEXT,                   -- found | none | failed, once done
    input          BLOB,                   -- the failing input (found), never a test's input
    expected       BLOB,                   -- the reference's output on it (empty for a special judge)
    actual         BLOB,                   -- the submission's output on it, bounded
    verdict        TEXT,                   -- the submission's verdict on it
    message        TEXT,                   -- the checker's message, or why nothing was found
    judged         INTEGER,                -- inputs judged by the search
    finished_at    REAL
);
CREATE INDEX IF NOT EXISTS counterexamples_by_student ON counterexamples (student, requested_at);
CREATE INDEX IF NOT EXISTS counterexamples_by_status ON counterexamples (status, id);
"""

_COLUMNS = (
    "id, submission_id, student, problem_id, requested_at, status, found, input, expected, actual, verdict, message, "
    "judged, finished_at"
)


class CounterexampleResult(Struct, frozen=True):
    """What a search found, as stored: `input`, `expected` and `actual` are bytes as the programs wrote them
    (hostile text: a page shows them through judge/inert.py)."""

    found: Found
    input: bytes = b""
    expected: bytes = b""
    actual: bytes = b""
    verdict: str = ""
    message: str = ""
    judged: int = 0


class StoredCounterexample(Struct, frozen=True):
    """A request and, once done, its result."""

    id: int
    submission_id: int
    student: str
    problem_id: str
    requested_at: float
    status: CounterexampleStatus
    result: CounterexampleResult | None
    finished_at: float | None

    @classmethod
    def of_row(cls, row: sqlite3.Row) -> StoredCounterexample:
        result = None
        if row["status"] == "done":
            result = CounterexampleResult(
                found=row["found"],
                input=bytes(row["input"] or b""),
                expected=bytes(row["expected"] or b""),
                actual=bytes(row["actual"] or b""),
                verdict=row["verdict"] or "",
                message=row["message"] or "",
                judged=row["judged"] or 0,
            )
        return cls(
            id=row["id"],
            submission_id=row["submission_id"],
            student=row["student"],
            problem_id=row["problem_id"],
            requested_at=row["requested_at"],
            status=row["status"],
            result=result,
            finished_at=row["finished_at"],
        )


class ClaimedCounterexample(Struct, frozen=True):
    """A request a search now holds: the request, the submission's file name, language and source, and the token
    only this claim carries."""

    request: StoredCounterexample
    file_name: str
    language: str
    source: bytes
    token: str


class Asked(Struct, frozen=True):
    """A request stored (`id`), or why not: `pending` (one is queued or searching already) or `again_at` (the hour's
    requests are used up: the moment the oldest of them leaves the hour)."""

    id: int | None
    pending: bool = False
    again_at: float | None = None


class CounterexampleRows(Database):
    def ask_counterexample(self, submission_id: int, student: str, problem_id: str, per_hour: int) -> Asked:
        """Store a request unless the student has one pending or `per_hour` in the last hour."""
        now = time.time()
        with self._transaction() as connection:
            pending = connection.execute(
                "SELECT COUNT(*) FROM counterexamples WHERE student = ? AND status != 'done'", (student,)
            ).fetchone()[0]
            if pending:
                return Asked(None, pending=True)
            recent = [
                row["requested_at"]
                for row in connection.execute(
                    "SELECT requested_at FROM counterexamples WHERE student = ? AND requested_at > ?"
                    " ORDER BY requested_at",
                    (student, now - HOUR_SECONDS),
                )
            ]
            if len(recent) >= per_hour:
                return Asked(None, again_at=recent[len(recent) - per_hour] + HOUR_SECONDS)
            cursor = connection.execute(
                "INSERT INTO counterexamples (submission_id, student, problem_id, requested_at, status)"
                " VALUES (?, ?, ?, ?, 'queued')",
                (submission_id, student, problem_id, now),
            )
            return Asked(int(cursor.lastrowid or 0))

    def claim_counterexample(self, judging_process: str) -> ClaimedCounterexample | None:
        """The oldest queued request, under a new token, if no submission is queued; None otherwise."""
        with (
            self._connect() as connection
        ):  # the idle judging process asks 20 times a second: no write lock for nothing
            if not connection.execute("SELECT 1 FROM counterexamples WHERE status = 'queued' LIMIT 1").fetchone():
                return None
        with self._transaction() as connection:
            if connection.execute("SELECT 1 FROM submissions WHERE status = 'queued' LIMIT 1").fetchone():
                return None
            row = connection.execute(
                "SELECT counterexamples.id, file_name, language, source FROM counterexamples"
                " JOIN submissions ON submissions.id = counterexamples.submission_id"
                " WHERE counterexamples.status = 'queued' ORDER BY counterexamples.id LIMIT 1"
            ).fetchone()
            if row is None:
                return None
            token = f"{judging_process}/{secrets.token_hex(8)}"
            connection.execute(
                "UPDATE counterexamples SET status = 'searching', claim = ? WHERE id = ?", (token, row["id"])
            )
            claimed = connection.execute(
                f"SELECT {_COLUMNS} FROM counterexamples WHERE id = ?", (row["id"],)
            ).fetchone()
            return ClaimedCounterexample(
                StoredCounterexample.of_row(claimed), row["file_name"], row["language"], bytes(row["source"]), token
            )

    def submission_waiting(self) -> bool:
        """Whether a submission is queued (a search gives its worker back then)."""
        with self._connect() as connection:
            return (
                connection.execute("SELECT 1 FROM submissions WHERE status = 'queued' LIMIT 1").fetchone() is not None
            )

    def finish_counterexample(self, request_id: int, token: str, result: CounterexampleResult) -> bool:
        """Store `result` if the claim `token` still holds the request; whether it did."""
        with self._transaction() as connection:
            return bool(
                connection.execute(
                    "UPDATE counterexamples SET status = 'done', claim = NULL, found = ?, input = ?, expected = ?,"
                    " actual = ?, verdict = ?, message = ?, judged = ?, finished_at = ?"
                    " WHERE id = ? AND claim = ? AND status = 'searching'",
                    (
                        result.found,
                        result.input,
                        result.expected,
                        result.actual,
                        result.verdict,
                        result.message,
                        result.judged,
                        time.time(),
                        request_id,
                        token,
                    ),
                ).rowcount
            )

    def release_counterexample(self, request_id: int, token: str) -> bool:
        """Give the request back to the queue (its search is stopped by its claim's absence); whether it held."""
        with self._transaction() as connection:
            return bool(
                connection.execute(
                    "UPDATE counterexamples SET status = 'queued', claim = NULL"
                    " WHERE id = ? AND claim = ? AND status = 'searching'",
                    (request_id, token),
                ).rowcount
            )

    def release_counterexample_claims(self) -> int:
        """Put every request being searched back in the queue (a judging process starts)."""
        with self._transaction() as connection:
            return connection.execute(
                "UPDATE counterexamples SET status = 'queued', claim = NULL WHERE status = 'searching'"
            ).rowcount

    def counterexample_of(self, submission_id: int) -> StoredCounterexample | None:
        """The latest request for the submission."""
        with self._connect() as connection:
            row = connection.execute(
                f"SELECT {_COLUMNS} FROM counterexamples WHERE submission_id = ? ORDER BY id DESC LIMIT 1",
                (submission_id,),
            ).fetchone()
        return StoredCounterexample.of_row(row) if row is not None else None

    def counterexamples(self) -> list[StoredCounterexample]:
        """Every request, newest first (the teacher's log)."""
        with self._connect() as connection:
            rows = connection.execute(f"SELECT {_COLUMNS} FROM counterexamples ORDER BY id DESC").fetchall()
        return [StoredCounterexample.of_row(row) for row in rows]


def claim_holds(database: Path, request_id: int, token: str) -> bool:
    """Whether `token` still holds the request: a running search asks between trials, on a connection of its own
    (it runs in another process), and stops once the claim was given back. A database it cannot read counts as
    holding: the search is bounded anyway, and its result is stored only under its claim."""
    try:
        connection = sqlite3.connect(
            f"{database.resolve().as_uri()}?mode=rw", uri=True, timeout=CLAIM_CHECK_BUSY_SECONDS
        )
    except (sqlite3.Error, OSError, ValueError):
        return True
    try:
        row = connection.execute(
            "SELECT 1 FROM counterexamples WHERE id = ? AND claim = ? AND status = 'searching'", (request_id, token)
        ).fetchone()
    except sqlite3.Error:
        return True
    finally:
        connection.close()
    return row is not None
