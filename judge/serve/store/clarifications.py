"""Clarifications: a student's question about a problem, and the teacher's answer, to the asker alone or to
everyone. A student reads their own questions and the ones answered to everyone, never another student's private
one (`visible_to`); the asker of a question answered to everyone is the teacher's to know (clarifications.py leaves
it out of what a student is shown)."""

from __future__ import annotations

import sqlite3
import time

from msgspec import Struct

from judge.serve.store.database import Database

CLARIFICATIONS_SCHEMA = """
CREATE TABLE IF NOT EXISTS clarifications (
    id             INTEGER PRIMARY KEY AUTOINCREMENT,
    student        TEXT NOT NULL,          -- who asked
    problem_id     TEXT NOT NULL,
    question       TEXT NOT NULL,
    asked_at       REAL NOT NULL,          -- Unix time
    answer         TEXT,                   -- NULL until the teacher answers
    answered_at    REAL,
    to_everyone    INTEGER NOT NULL DEFAULT 0  -- 1: the question and its answer are shown to every student
);
CREATE INDEX IF NOT EXISTS clarifications_by_student ON clarifications (student);
"""

_COLUMNS = "id, student, problem_id, question, asked_at, answer, answered_at, to_everyone"


class Clarification(Struct, frozen=True):
    id: int
    student: str
    problem_id: str
    question: str
    asked_at: float
    answer: str | None
    answered_at: float | None
    to_everyone: bool

    @classmethod
    def of_row(cls, row: sqlite3.Row) -> Clarification:
        return cls(
            id=row["id"],
            student=row["student"],
            problem_id=row["problem_id"],
            question=row["question"],
            asked_at=row["asked_at"],
            answer=row["answer"],
            answered_at=row["answered_at"],
            to_everyone=bool(row["to_everyone"]),
        )


class ClarificationRows(Database):
    def ask(self, student: str, problem_id: str, question: str) -> int:
        with self._transaction() as connection:
            cursor = connection.execute(
                "INSERT INTO clarifications (student, problem_id, question, asked_at) VALUES (?, ?, ?, ?)",
                (student, problem_id, question, time.time()),
            )
        return int(cursor.lastrowid or 0)

    def answer(self, clarification_id: int, answer: str, *, to_everyone: bool) -> bool:
        """Answer (or answer again: the newer words replace the older); False when there is no such question."""
        with self._transaction() as connection:
            cursor = connection.execute(
                "UPDATE clarifications SET answer = ?, answered_at = ?, to_everyone = ? WHERE id = ?",
                (answer, time.time(), int(to_everyone), clarification_id),
            )
        return cursor.rowcount == 1

    def clarifications(self) -> list[Clarification]:
        """Every question, the unanswered first, then newest first (the teacher's list)."""
        with self._connect() as connection:
            rows = connection.execute(
                f"SELECT {_COLUMNS} FROM clarifications ORDER BY answer IS NOT NULL, id DESC"
            ).fetchall()
        return [Clarification.of_row(row) for row in rows]

    def visible_to(self, student: str) -> list[Clarification]:
        """The student's own questions and those answered to everyone, newest first."""
        with self._connect() as connection:
            rows = connection.execute(
                f"SELECT {_COLUMNS} FROM clarifications WHERE student = ? OR (to_everyone = 1 AND answer IS NOT NULL)"
                " ORDER BY id DESC",
                (student,),
            ).fetchall()
        return [Clarification.of_row(row) for row in rows]
