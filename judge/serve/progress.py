"""A submission's progress while it is judged ("compiling", "test 3 of 12"), written into the server's database,
so a student's page shows it live.

It rides along with the task (`SubmissionTask.listener`) and runs on the worker, between tests, never while a test is
measured. A local worker writes the database itself. A Dask worker (perhaps on another machine, without the
file) logs the phase as a Dask event instead (`PROGRESS_TOPIC`); the judging process subscribes to those through
its client and writes them (`DaskProgressRecorder`), off the client's event loop. Either way the write is
store/submissions.py's
`record_progress`: it gives up on a busy database rather than wait, and nothing here raises: progress
is a courtesy, the verdict is what counts. A write only lands while the submission is still judged under the same
claim.
"""

from __future__ import annotations

import queue
import sys
import threading
from pathlib import Path
from typing import Any

from judge.judging.results import CaseResult, SubmissionHeader
from judge.serve.store import record_progress

PROGRESS_TOPIC = "judge-serve-progress"


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
        worker = _dask_worker()
        if worker is None:
            record_progress(self._database, self._submission_id, self._claim, phase)
            return
        try:
            worker.log_event(PROGRESS_TOPIC, {"submission": self._submission_id, "claim": self._claim, "phase": phase})
        except (RuntimeError, TypeError, ValueError):  # a worker shutting down: the verdict still comes back
            return


def _dask_worker() -> Any | None:
    """The Dask worker running this task, or None. `distributed` is already imported on a Dask worker; a local
    pool's worker never imports it for this."""
    distributed = sys.modules.get("distributed")
    if distributed is None:
        return None
    try:
        return distributed.get_worker()
    except ValueError:  # imported, but this is not a Dask worker's task
        return None


class DaskProgressRecorder:
    """The judging process's handler of the progress events Dask workers log: queued by the Dask client's event
    loop, which must not wait on the database, and written by a thread of its own."""

    def __init__(self, database: Path) -> None:
        self._database = database
        self._events: queue.SimpleQueue[tuple[int, str, str]] = queue.SimpleQueue()
        threading.Thread(target=self._write_forever, name="dask-progress", daemon=True).start()

    def __call__(self, event: tuple[float, Any]) -> None:
        _, message = event
        if isinstance(message, dict):
            submission_id, claim, phase = message.get("submission"), message.get("claim"), message.get("phase")
            if isinstance(submission_id, int) and isinstance(claim, str) and isinstance(phase, str):
                self._events.put((submission_id, claim, phase))

    def _write_forever(self) -> None:
        while True:
            submission_id, claim, phase = self._events.get()
            record_progress(self._database, submission_id, claim, phase)
