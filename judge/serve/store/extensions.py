"""Extensions granted on the teacher's page: one row per (student, assignment), replaced when granted again.
They override extensions.csv's for the same pair (service.py lists them after the file's)."""

from __future__ import annotations

from judge.course.model import Extension
from judge.serve.store.database import Database

EXTENSIONS_SCHEMA = """
CREATE TABLE IF NOT EXISTS extensions (student TEXT NOT NULL, assignment TEXT NOT NULL, due REAL NOT NULL,
                                       PRIMARY KEY (student, assignment));
"""


class ExtensionRows(Database):
    def grant_extension(self, extension: Extension) -> None:
        with self._transaction() as connection:
            connection.execute(
                "INSERT INTO extensions VALUES (?, ?, ?) "
                "ON CONFLICT (student, assignment) DO UPDATE SET due=excluded.due",
                (extension.student, extension.assignment, extension.due),
            )

    def extensions(self) -> tuple[Extension, ...]:
        """By student, then assignment."""
        with self._connect() as connection:
            rows = connection.execute("SELECT student, assignment, due FROM extensions ORDER BY student, assignment")
            return tuple(Extension(row["student"], row["assignment"], row["due"]) for row in rows)

    def remove_extension(self, student: str, assignment: str) -> bool:
        """False when there was no such extension."""
        with self._transaction() as connection:
            cursor = connection.execute(
                "DELETE FROM extensions WHERE student = ? AND assignment = ?", (student, assignment)
            )
        return cursor.rowcount == 1
