"""The executor contract: where `judge grade` runs its tasks.

An executor accepts tasks and hands back each one's outcome as it finishes, in whatever order they finish:

    with LocalExecutor(jobs=2) as executor:
        for task in tasks[: executor.capacity]:
            executor.submit(task)
        finished = executor.next_finished()      # blocks; Finished(task, outcome)
        finished = executor.wait_finished(0.05)  # or None when none finished within 0.05 s

`capacity` is how many tasks are worth having submitted at once (enough to keep every worker busy); the session
keeps no more than that in flight, so an interruption loses at most that many pairs and a cluster's scheduler
does not hold the whole class's problem data at once. `workers` is how many run at once at full speed, and
`lanes` (lanes.py) how many may start now: `judge serve` submits no more than that and waits with a timeout,
looking for new work in between, so a worker that frees up takes the submission that is first in the fair order
at that moment, not one handed over earlier; where the local pool has spare processes, a judging gone slow
stops counting against `workers`. A task whose worker was lost comes back as a JE outcome (after the executor's
own retries), never as an exception. Leaving the `with` block because of an exception (Ctrl-C, SIGTERM) cancels
what is still running and stops the workers it started.
"""

from __future__ import annotations

from types import TracebackType
from typing import Protocol

from msgspec import Struct

from judge.batch.executors.lanes import Lanes
from judge.batch.tasks import SubmissionOutcome, SubmissionTask


class Finished(Struct, frozen=True):
    """A task and what judging it gave."""

    task: SubmissionTask
    outcome: SubmissionOutcome


class Executor(Protocol):
    """Runs `run_task` on tasks somewhere and reports them as they finish."""

    @property
    def capacity(self) -> int: ...

    @property
    def workers(self) -> int: ...

    @property
    def lanes(self) -> Lanes: ...

    def submit(self, task: SubmissionTask) -> None: ...

    def next_finished(self) -> Finished:
        """The next task to finish (blocks until one does)."""
        ...

    def wait_finished(self, timeout: float) -> Finished | None:
        """The next task to finish, or None when none finishes within `timeout` seconds (or none was submitted)."""
        ...

    def __enter__(self) -> Executor: ...

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, traceback: TracebackType | None
    ) -> None: ...
