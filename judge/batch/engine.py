"""Running many judgings as one batch: the loop both `judge verify` and `judge grade` run their tasks through.

Tasks go to an executor (batch/executors: a local spawn pool with crash isolation, or a Dask cluster), the
longest first (batch/order.py), at most `executor.capacity` in flight, and each outcome is handed to `on_finished`
as it arrives, in finishing order.
Ctrl-C and SIGTERM unwind the same way: the executor stops its workers (nothing is left running) and `Stopped`
names the signal, for the command to say how far it got and exit 128 + its number.
"""

from __future__ import annotations

import signal
import threading
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from types import FrameType

from judge.batch.executors import Executor, ExecutorChoice, Finished, open_executor
from judge.batch.order import Estimate, by_test_count, longest_first
from judge.batch.status_bar import StatusBar
from judge.batch.tasks import SubmissionTask


class Terminated(BaseException):
    """SIGTERM arrived while judging. BaseException, like KeyboardInterrupt, so no `except Exception` stops it."""


class Stopped(Exception):
    """The batch was stopped by Ctrl-C or SIGTERM (`signal_number`), after its workers were stopped."""

    def __init__(self, signal_number: int) -> None:
        super().__init__(f"stopped by signal {signal_number}")
        self.signal_number = signal_number


def run_batch(
    tasks: Sequence[SubmissionTask],
    choice: ExecutorChoice,
    bar: StatusBar,
    on_finished: Callable[[Finished], None],
    expected: Estimate = by_test_count,
) -> None:
    """Judge every task on the executor `choice` names, the longest (by `expected`) first, calling `on_finished`
    and advancing the status `bar` per task. With no task, no executor is started (no workers spawned, no cluster
    contacted)."""
    if not tasks:
        return
    try:
        with _sigterm_raises(), bar, open_executor(choice) as executor:
            _feed(longest_first(tasks, expected), executor, bar, on_finished)
    except (KeyboardInterrupt, Terminated) as stop:
        raise Stopped(signal.SIGINT if isinstance(stop, KeyboardInterrupt) else signal.SIGTERM) from None


def _feed(
    tasks: Sequence[SubmissionTask],
    executor: Executor,
    bar: StatusBar,
    on_finished: Callable[[Finished], None],
) -> None:
    waiting = deque(tasks)
    in_flight = 0
    while waiting or in_flight:
        while waiting and in_flight < executor.capacity:
            task = waiting.popleft()
            executor.submit(task)
            bar.started(task)
            in_flight += 1
        finished = executor.next_finished()
        in_flight -= 1
        on_finished(finished)
        bar.advance(finished.outcome.verdict, finished.task.pair)


@contextmanager
def _sigterm_raises() -> Iterator[None]:
    """While inside, SIGTERM raises Terminated in the main thread (signal handlers can only be set there)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGTERM, _raise_terminated)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def _raise_terminated(signum: int, frame: FrameType | None) -> None:
    raise Terminated
