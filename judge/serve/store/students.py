"""The class: each student's id, name and password hash (the roster, as `judge serve` last read it)."""

from __future__ import annotations

from collections.abc import Sequence

from msgspec import Struct

from judge.serve.store.database import Database

STUDENTS_SCHEMA = """
CREATE TABLE IF NOT EXISTS students (
    id             TEXT PRIMARY KEY,
    name           TEXT NOT NULL,
    password_hash  TEXT NOT NULL           -- argon2id, as auth.py writes it
);
"""


class Student(Struct, frozen=True):
    id: str
    name: str
    password_hash: str


class StudentRows(Database):
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
