"""The data folder's database file and its connections: one per thread, kept for the next call, every statement
in its own transaction. Each table's rows are a mixin of `Database` in this package (students.py, submissions.py,
settings.py, sessions.py); `Store` (the package's `__init__`) combines them and lists their schemas."""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import ClassVar

DATABASE_NAME = "serve.sqlite"
SCHEMA_VERSION = 1
"""Tables may be added (CREATE TABLE IF NOT EXISTS) within a version; a changed table needs a new version."""
BUSY_TIMEOUT_MS = 10_000


class Database:
    """The database under `data_dir`. Any thread may use one: each thread gets its own connection, kept for the
    next call (see the package's docstring); a process makes its own."""

    SCHEMAS: ClassVar[tuple[str, ...]] = ()
    """Every table's CREATE statements (the combined `Store` lists its mixins')."""

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
            connection.executescript("".join(self.SCHEMAS))
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
