"""Submissions: stored durably, claimed by the judging process, finished with their result, rejudged.

A submission moves queued -> judging -> done. `claim` is a token made anew for each claim (the judging process's
name and a random part): a result is written only `WHERE claim = ?`, so after a crash, a restart or a rejudge
(each of which clears claims), a result of an older run changes nothing, even when the same judging process has
claimed the submission again meanwhile, and every submission ends with exactly one result: the latest claim's.
"""

from __future__ import annotations

import json
import secrets
import sqlite3
import time
from collections.abc import Sequence
from functools import cached_property
from pathlib import Path
from typing import Literal

from msgspec import Struct

from judge.batch.tasks import SubmissionOutcome
from judge.judging.results import SubmissionResult
from judge.serve.store.database import Database
from judge.serve.store.rejudges import Requeued, capture_old_results
from judge.verdicts import Verdict

PROGRESS_BUSY_SECONDS = 0.2
"""How long a progress write waits for a busy database: progress is a courtesy, a test must not wait on it."""
Status = Literal["queued", "judging", "done"]

SUBMISSIONS_SCHEMA = """
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
"""

_COLUMNS = (
    "id, student, problem_id, language, file_name, submitted_at, status, progress, verdict, tests_passed, "
    "result_json, error, worker, judged_at"
)


class StoredSubmission(Struct, frozen=True, dict=True):  # dict: room for the cached `result`
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


class Claimed(Struct, frozen=True):
    """A submission a judging process now holds: its row, its source, and the token only this claim carries."""

    submission: StoredSubmission
    source: bytes
    token: str


class NewSubmission(Struct, frozen=True):
    student: str
    problem_id: str
    language: str
    file_name: str
    source: bytes
    submitted_at: float | None = None
    """The moment the server checked its deadlines against (None: now): the stored time is the one the deadline
    was checked at, so a submission accepted a millisecond before a hard deadline is not stamped after it."""


class Filters(Struct, frozen=True):
    """The teacher's filters on the submission list; None lets everything through."""

    student: str | None = None
    problem_id: str | None = None
    verdict: str | None = None


class SubmissionRows(Database):
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
                (
                    new.student,
                    new.problem_id,
                    new.language,
                    new.file_name,
                    new.source,
                    time.time() if new.submitted_at is None else new.submitted_at,
                ),
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

    def requeue(self, *, reason: str, submission_id: int | None = None, problem_id: str | None = None) -> Requeued:
        """Rejudge, for `reason`: one submission, a problem's, or (neither given) every one; their results are
        cleared, after the same transaction has kept them for the rejudge's report (rejudges.py)."""
        clauses: list[str] = []
        values: list[int | str] = []
        if submission_id is not None:
            clauses.append("id = ?")
            values.append(submission_id)
        if problem_id is not None:
            clauses.append("problem_id = ?")
            values.append(problem_id)
        where = f"WHERE {' AND '.join(clauses)}" if clauses else ""
        scope = (
            f"submission {submission_id}"
            if submission_id is not None
            else (f"problem {problem_id}" if problem_id is not None else "everything")
        )
        with self._transaction() as connection:
            rejudge_id = capture_old_results(connection, reason, scope, where, values)
            count = connection.execute(
                "UPDATE submissions SET status = 'queued', claim = NULL, progress = NULL, verdict = NULL,"
                " tests_passed = NULL, result_json = NULL, error = NULL, worker = NULL, judged_at = NULL"
                f" {where}",
                values,
            ).rowcount
            return Requeued(rejudge_id, count)

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
