"""The Dask executor: tasks go to a Dask distributed cluster (`--scheduler tls://HOST:PORT --cluster-dir DIR`).

Start the cluster with `judge cluster scheduler DIR` and, on each machine, `judge cluster worker DIR
tls://HOST:PORT` (judge/cluster/: mutual TLS, one thread per worker, so measured times are not disturbed by a
neighbour). Workers need `judge` and the languages' toolchains installed, but no shared file system: every task
carries its problem and source bytes.

When a worker dies, the scheduler runs its tasks again elsewhere (`run_task` is idempotent); `retries` covers
a task that raised on the worker (for example when unpickling it failed). A task still failing after that comes
back as JE. `distributed` is imported only here, so local grading works without the `dask` extra.
"""

from __future__ import annotations

import queue
import uuid
from collections.abc import Callable
from types import TracebackType
from typing import TYPE_CHECKING, Any

from judge.batch.executors.base import Finished
from judge.batch.executors.lanes import Lanes
from judge.batch.tasks import SubmissionOutcome, SubmissionTask, run_task
from judge.cluster.address import SchedulerTarget
from judge.errors import JudgeError

if TYPE_CHECKING:
    from distributed import Future

RETRIES = 2
CONNECT_TIMEOUT = "10s"


class DaskExecutor:
    """A client of the cluster whose scheduler `target` names, with its certificate when it is TLS."""

    def __init__(self, target: SchedulerTarget) -> None:
        try:
            from distributed import Client
        except ImportError:
            raise JudgeError("--scheduler needs Dask: pip install 'judge[dask]'") from None
        security = target.files.security() if target.files is not None else None
        try:
            self._client = Client(str(target.address), timeout=CONNECT_TIMEOUT, set_as_default=False, security=security)
        except (OSError, TimeoutError, ValueError) as error:
            raise JudgeError(
                f"--scheduler {target.address}: cannot reach a Dask scheduler there ({' '.join(str(error).split())})"
            ) from None
        self._running: dict[Future[SubmissionOutcome], SubmissionTask] = {}
        self._done: queue.SimpleQueue[Future[SubmissionOutcome]] = queue.SimpleQueue()
        """Futures in the order they finished, put there by their done callbacks (on a thread of Dask's)."""

    @property
    def capacity(self) -> int:
        return 2 * self.workers

    @property
    def workers(self) -> int:
        return max(sum(self._client.nthreads().values()), 1)

    @property
    def lanes(self) -> Lanes:
        """No spare slots: a cluster's workers are its own to size (add workers for a slow lane)."""
        return Lanes(self.workers)

    def submit(self, task: SubmissionTask) -> None:
        owner, problem_id = task.pair
        future = self._client.submit(
            run_task,
            task,
            key=f"judge-grade-{problem_id}-{owner}-{uuid.uuid4().hex}",
            pure=False,
            retries=RETRIES,
        )
        self._running[future] = task
        future.add_done_callback(self._done.put)

    def next_finished(self) -> Finished:
        return self._outcome(self._done.get())

    def wait_finished(self, timeout: float) -> Finished | None:
        try:
            return self._outcome(self._done.get(timeout=timeout))
        except queue.Empty:
            return None

    def _outcome(self, future: Future[SubmissionOutcome]) -> Finished:
        task = self._running.pop(future)
        if future.status == "finished":
            return Finished(task, future.result())
        reason = repr(future.exception()) if future.status == "error" else f"it was {future.status}"
        return Finished(task, SubmissionOutcome.failure(f"the Dask task failed: {reason}", worker="dask cluster"))

    def subscribe(self, topic: str, handler: Callable[[tuple[float, Any]], None]) -> None:
        """Call `handler` with each (time, message) that a task logs under `topic` (`Worker.log_event`), on the
        client's event loop (`judge serve` shows a submission's progress from its worker this way)."""
        self._client.subscribe_topic(topic, handler)

    def __enter__(self) -> DaskExecutor:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, traceback: TracebackType | None
    ) -> None:
        if kind is not None and self._running:
            self._client.cancel(list(self._running))
        self._client.close()
