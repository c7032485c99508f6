"""A submission's progress while it is judged ("compiling", "test 3 of 12"), written by the worker that judges it
into the server's database, so a student's page shows it live.

It rides along with the task (`SubmissionTask.listener`) and runs on the worker, between tests, never while a test is
measured. It opens the database only if it is there (a Dask worker on another machine has no such file, and
then shows nothing), gives up on a busy database rather than wait, and never raises: progress is a courtesy, the
verdict is what counts. A write only lands while the submission is still judged under the same claim.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

from judge.judging.results import CaseResult, SubmissionHeader

BUSY_SECONDS = 0.2


class StoredProgress:
    """A CaseListener that records the phase of one claimed submission."""

    def __init__(self, database: Path, submission_id: int, claim: str) -> None:
        self._database = database
        self._submission_id = submission_id
        self._claim = claim
        self._tests = 0
        self._done = 0

    def started(self, header: SubmissionHeader) -> None:
        self._tests = len(header.tests)
        self._write("compiling")

    def compiled(self, warnings: str) -> None:
        self._write(self._next_test())

    def judged(self, case: CaseResult) -> None:
        self._done += 1
        self._write(self._next_test())

    def _next_test(self) -> str:
        return f"test {min(self._done + 1, self._tests)} of {self._tests}" if self._tests else "judging"

    def _write(self, phase: str) -> None:
        try:
            connection = sqlite3.connect(f"{self._database.resolve().as_uri()}?mode=rw", uri=True, timeout=BUSY_SECONDS)
        except (sqlite3.Error, OSError, ValueError):
            return
        try:
            with connection:
                connection.execute(
                    "UPDATE submissions SET progress = ? WHERE id = ? AND claim = ? AND status = 'judging'",
                    (phase, self._submission_id, self._claim),
                )
        except sqlite3.Error:
            return
        finally:
            connection.close()
