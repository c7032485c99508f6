"""The teacher's settings (contest.py's, as text, so both processes and a restart see the same values) and
announcements."""

from __future__ import annotations

import time

from msgspec import Struct

from judge.serve.store.database import Database

PROBLEMS_EPOCH = "problems_epoch"
"""The settings key the server changes to make the judging process read the problems again."""
SETTINGS_SCHEMA = """
CREATE TABLE IF NOT EXISTS settings (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS announcements (id INTEGER PRIMARY KEY AUTOINCREMENT, text TEXT NOT NULL,
                                          posted_at REAL NOT NULL);
"""


class Announcement(Struct, frozen=True):
    """The teacher's line on every page: posted at `posted_at`, edited or removed by `id`."""

    id: int
    posted_at: float
    text: str


class SettingRows(Database):
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
