"""Rejudges: each one's reason and time, and per submission the result it had before (captured by
`capture_old_results` inside `SubmissionRows.requeue`'s transaction, before the result is cleared), so a report can
say what changed.

The new result of a rejudged submission is what the next rejudge of it captured, else its row as it stands: an
older rejudge's report stays true after the submission is rejudged again.
"""

from __future__ import annotations

import sqlite3
import time

from msgspec import Struct

from judge.serve.store.database import Database
from judge.verdicts import Verdict

REJUDGES_SCHEMA = """
CREATE TABLE IF NOT EXISTS rejudges (
    id             INTEGER PRIMARY KEY AUTOINCREMENT,
    reason         TEXT NOT NULL,          -- the teacher's words, shown to the students whose result changed
    scope          TEXT NOT NULL,          -- what was rejudged: "submission 12", "problem sum", "everything"
    rejudged_at    REAL NOT NULL           -- Unix time
);
CREATE TABLE IF NOT EXISTS rejudged_submissions (
    rejudge_id     INTEGER NOT NULL REFERENCES rejudges (id),
    submission_id  INTEGER NOT NULL,
    old_status     TEXT NOT NULL,          -- queued | judging | done when it was rejudged
    old_verdict    TEXT,                   -- Verdict.short, NULL when it had none
    old_tests_passed INTEGER,
    old_score      REAL,                   -- a scored problem's score, else NULL
    PRIMARY KEY (rejudge_id, submission_id)
);
CREATE INDEX IF NOT EXISTS rejudged_by_submission ON rejudged_submissions (submission_id, rejudge_id);
"""

_SCORE = "json_extract(result_json, '$.score')"


class Rejudge(Struct, frozen=True):
    """One rejudge as the teacher asked for it."""

    id: int
    reason: str
    scope: str
    rejudged_at: float


class Requeued(Struct, frozen=True):
    """What `SubmissionRows.requeue` did: the rejudge's id (its report's) and how many submissions it queued."""

    rejudge_id: int | None
    """None when nothing was rejudged."""
    count: int


class Judged(Struct, frozen=True):
    """A submission's result at one moment: None for a verdict it did not have (queued, or being judged)."""

    verdict: Verdict | None
    tests_passed: int | None
    score: float | None

    @property
    def shown(self) -> str:
        """As the report and the student's line say it: `WA`, `AC 50` on a scored problem, `not judged`."""
        if self.verdict is None:
            return "not judged"
        return self.verdict.short + (f" {self.score:g}" if self.score is not None else "")


class RejudgedEntry(Struct, frozen=True):
    """One submission of one rejudge: what it had before, and after (None while still queued or judged)."""

    rejudge: Rejudge
    submission_id: int
    student: str
    problem_id: str
    old: Judged
    new: Judged | None
    superseded: bool = False
    """Rejudged again before this rejudge's result was in: it never had one."""

    @property
    def outcome(self) -> str:
        """`pending` until the rejudge's result is in, then `changed` or `unchanged` (verdict, tests, score);
        `superseded` when a later rejudge came first."""
        if self.superseded:
            return "superseded"
        if self.new is None:
            return "pending"
        return "unchanged" if self.new == self.old else "changed"


class RejudgeRows(Database):
    def rejudges(self) -> list[Rejudge]:
        """Newest first."""
        with self._connect() as connection:
            rows = connection.execute("SELECT id, reason, scope, rejudged_at FROM rejudges ORDER BY id DESC").fetchall()
        return [Rejudge(row["id"], row["reason"], row["scope"], row["rejudged_at"]) for row in rows]

    def rejudged_entries(
        self, *, rejudge_id: int | None = None, student: str | None = None, submission_id: int | None = None
    ) -> list[RejudgedEntry]:
        """The rejudged submissions matching every filter given, by rejudge (newest first), student, problem and
        submission; each with its new result: the next rejudge's capture, else the row once done."""
        clauses, values = [], []
        for column, value in (("r.rejudge_id", rejudge_id), ("s.student", student), ("r.submission_id", submission_id)):
            if value is not None:
                clauses.append(f"{column} = ?")
                values.append(value)
        where = f"WHERE {' AND '.join(clauses)}" if clauses else ""
        with self._connect() as connection:
            rows = connection.execute(
                "SELECT j.id, j.reason, j.scope, j.rejudged_at, r.submission_id, s.student, s.problem_id,"
                " r.old_verdict, r.old_tests_passed, r.old_score,"
                " n.old_status AS next_status, n.old_verdict AS next_verdict,"
                " n.old_tests_passed AS next_tests_passed, n.old_score AS next_score,"
                f" s.status, s.verdict, s.tests_passed, {_SCORE.replace('result_json', 's.result_json')} AS score"
                " FROM rejudged_submissions r JOIN rejudges j ON j.id = r.rejudge_id"
                " JOIN submissions s ON s.id = r.submission_id"
                " LEFT JOIN rejudged_submissions n ON n.submission_id = r.submission_id AND n.rejudge_id ="
                "   (SELECT MIN(rejudge_id) FROM rejudged_submissions"
                "    WHERE submission_id = r.submission_id AND rejudge_id > r.rejudge_id)"
                f" {where} ORDER BY j.id DESC, s.student, s.problem_id, r.submission_id",
                values,
            ).fetchall()
        return [_entry(row) for row in rows]


def _entry(row: sqlite3.Row) -> RejudgedEntry:
    old = _judged(row["old_verdict"], row["old_tests_passed"], row["old_score"])
    superseded = row["next_status"] not in (None, "done")
    if row["next_status"] == "done":  # rejudged again: this rejudge's result is what that one found
        new: Judged | None = _judged(row["next_verdict"], row["next_tests_passed"], row["next_score"])
    else:
        done = row["status"] == "done" and not superseded
        new = _judged(row["verdict"], row["tests_passed"], row["score"]) if done else None
    return RejudgedEntry(
        Rejudge(row["id"], row["reason"], row["scope"], row["rejudged_at"]),
        row["submission_id"],
        row["student"],
        row["problem_id"],
        old,
        new,
        superseded,
    )


def _judged(verdict: str | None, tests_passed: int | None, score: float | None) -> Judged:
    return Judged(Verdict.from_short(verdict) if verdict else None, tests_passed, score)


def capture_old_results(
    connection: sqlite3.Connection, reason: str, scope: str, where: str, values: list[int | str]
) -> int | None:
    """Inside the requeue's transaction, before its UPDATE: a new rejudge and the current result of every
    submission `where` selects; the rejudge's id (None when `where` selects nothing). A submission not judged
    since an earlier rejudge keeps the result that one captured: what its student last saw."""
    cursor = connection.execute(
        "INSERT INTO rejudges (reason, scope, rejudged_at) VALUES (?, ?, ?)", (reason, scope, time.time())
    )
    rejudge_id = int(cursor.lastrowid or 0)
    captured = connection.execute(
        "INSERT INTO rejudged_submissions"
        " (rejudge_id, submission_id, old_status, old_verdict, old_tests_passed, old_score)"
        " SELECT ?, id, status, CASE status WHEN 'done' THEN verdict ELSE p.old_verdict END,"
        "  CASE status WHEN 'done' THEN tests_passed ELSE p.old_tests_passed END,"
        f"  CASE status WHEN 'done' THEN {_SCORE} ELSE p.old_score END"
        " FROM submissions LEFT JOIN rejudged_submissions p ON p.submission_id = submissions.id AND p.rejudge_id ="
        "  (SELECT MAX(rejudge_id) FROM rejudged_submissions WHERE submission_id = submissions.id)"
        f" {where}",
        [rejudge_id, *values],
    ).rowcount
    if not captured:  # a rejudge of nothing (a submission that does not exist) leaves no empty report behind
        connection.execute("DELETE FROM rejudges WHERE id = ?", (rejudge_id,))
        return None
    return rejudge_id
