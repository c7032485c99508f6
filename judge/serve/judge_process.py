"""The judging process of `judge serve`: it claims queued submissions in the fair order
(store/submissions.py), judges them on
the batch executors `judge grade` uses (a local pool of `-j N` workers, or a Dask cluster), and stores each result
under its claim. It shares nothing with the web server but the database, so judging never runs, blocks or crashes
in the server's process.

A new judging process first releases every claim (the submissions an earlier one held go back in the queue). It
then claims a submission only for a free slot (`executor.lanes`: -j, and spares for slow ones) and, while one is
free, waits for a result at most IDLE_POLL_SECONDS before looking at the queue again: a submission that arrives
while a worker is free starts at once, whatever the others are running, so a slow one (an endless loop) holds one
worker and never the queue. Claiming no more than the workers can run also keeps the fair order fair: nothing
waits in the pool that a later student's first submission should have gone before.

Submissions are judged in BOJ's order: on a pass/fail problem the judging stops at the first test that is not
accepted (`fail_fast`); the result's `cases` are the tests judged and its `not_run` the names of the tests after
the stop, in order, so a page can show those rows as not run. A scored problem runs every test (only a group that
breaks skips its own later tests, as `judge run` does). `judge run` and `judge grade` keep their own defaults.

It watches its parent: once the server is gone (even by SIGKILL) it exits, and the local pool's workers, which
watch it in turn, kill the submissions' processes and exit, so nothing is left running. The problems are read
again when the teacher asks for it or for a rejudge (a new `problems_epoch`). A rejudge voids the claim of a run
still going (store/submissions.py): that run keeps its worker until it ends, and its result is not stored.

A counterexample request (counterexample_search.py) is a job of its own kind on the same workers: `Searches`
counts its search as a busy worker, claims one only when no submission is queued and a worker is free, and gives
the worker to a submission queued while every worker is busy, at once (the search winds down after its trial).

On a Dask cluster the progress of a submission ("test k of n") comes back as Dask events, which this process
writes into the database (progress.py), since a worker on another machine has no database to write.
"""

from __future__ import annotations

import os
import signal
import sys
import threading
import time
import uuid
from pathlib import Path
from types import FrameType

import msgspec.structs
from msgspec import Struct

from judge.batch.executors import Executor, ExecutorChoice, open_executor
from judge.batch.executors.dask_cluster import DaskExecutor
from judge.batch.packing import ProblemPack
from judge.batch.tasks import SubmissionOutcome, SubmissionTask
from judge.errors import JudgeError
from judge.inert import for_terminal
from judge.languages.sources import SourceFiles
from judge.options import RunOptions
from judge.problems.scan import load_problems
from judge.serve.counterexample_search import Searches
from judge.serve.progress import PROGRESS_TOPIC, DaskProgressRecorder, StoredProgress
from judge.serve.store import PROBLEMS_EPOCH, Claimed, Store, StoredSubmission

IDLE_POLL_SECONDS = 0.05
"""How long a free worker may wait for a submission that has just arrived (the queue is looked at this often)."""
BUSY_WAIT_SECONDS = 1.0
"""With every worker busy there is nothing to claim: the wait for a result (which ends it at once) looks at the
queue less often then, leaving the database and the CPU to the judging and the pages."""
PARENT_CHECK_SECONDS = 0.2


class JudgingConfig(Struct, frozen=True):
    """What the server hands its judging process (pickled into a spawned process)."""

    data_dir: Path
    problems_dir: Path
    executor: ExecutorChoice
    options: RunOptions
    parent_pid: int


class _Problems:
    """The problems' packs, read again when the server's `problems_epoch` changes."""

    def __init__(self, problems_dir: Path) -> None:
        self._problems_dir = problems_dir
        self.epoch: str | None = None
        self.packs: dict[str, ProblemPack] = {}

    def refresh(self, epoch: str) -> None:
        if epoch == self.epoch:
            return
        try:
            self.packs = {
                problem_id: ProblemPack.of(problem) for problem_id, problem in load_problems(self._problems_dir).items()
            }
        except JudgeError as error:  # a half-edited problem: keep judging with what was read before
            print(for_terminal(f"judge serve: problems not read again: {error}"), file=sys.stderr, flush=True)
        self.epoch = epoch


def judging_main(config: JudgingConfig) -> None:
    """The judging process's entry point: judge until SIGTERM (from the server) or until the server is gone."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the server's to handle; it then sends SIGTERM
    signal.signal(signal.SIGTERM, _exit_through_cleanup)
    threading.Thread(target=_exit_without_parent, args=(config.parent_pid,), daemon=True, name="watch-server").start()
    store = Store(config.data_dir)
    judging_process = uuid.uuid4().hex
    store.release_claims()
    store.release_counterexample_claims()
    problems = _Problems(config.problems_dir)
    searches = Searches(store, judging_process, config.problems_dir, config.options)
    with open_executor(config.executor) as executor, searches:
        lanes = executor.lanes  # a judging gone slow gives way where spare processes let a fresh one start beside it
        give_way_after = lanes.slow_after if lanes.spare else None
        options = msgspec.structs.replace(config.options, fail_fast=True, give_way_after=give_way_after)  # BOJ's order
        if isinstance(executor, DaskExecutor):  # its workers send progress as events (progress.py)
            executor.subscribe(PROGRESS_TOPIC, DaskProgressRecorder(store.path))
        _judge_forever(store, judging_process, problems, executor, options, searches)


def _judge_forever(
    store: Store,
    judging_process: str,
    problems: _Problems,
    executor: Executor,
    options: RunOptions,
    searches: Searches,
) -> None:
    in_flight: dict[int, tuple[Claimed, SubmissionTask, float]] = {}  # id(task) -> its claim: tasks are not hashable
    while True:
        problems.refresh(store.settings().get(PROBLEMS_EPOCH, ""))
        searches.collect()
        if searches.busy and len(in_flight) + 1 >= executor.workers and store.submission_waiting():
            searches.give_way()  # a submission waits for the search's worker: it takes it now
        workers = executor.workers - searches.busy
        lanes = executor.lanes  # -j at full speed, and spare slots that a judging gone slow makes room for
        now = time.monotonic()
        started = [moment for _, _, moment in in_flight.values()]
        free = lanes.free([*started, *[now] * searches.busy], now)  # a search counts as a fresh judging
        if free > 0:
            for claimed in store.claim(store.queued_in_fair_order(free), judging_process):
                submission = claimed.submission
                task = _task(
                    submission,
                    claimed.source,
                    problems.packs,
                    options,
                    StoredProgress(store.path, submission.id, claimed.token),
                )
                if task is None:
                    store.finish(
                        submission.id,
                        claimed.token,
                        SubmissionOutcome.failure(
                            f"the problem {submission.problem_id!r} is no longer in the problems folder", "judge serve"
                        ),
                    )
                    continue
                executor.submit(task)
                in_flight[id(task)] = (claimed, task, time.monotonic())
        if len(in_flight) < workers:
            searches.start_next()  # only while no submission is queued (the store checks, as it claims)
        if not in_flight:
            time.sleep(IDLE_POLL_SECONDS)
            continue
        busy = len(in_flight) >= lanes.processes and not searches.busy  # a search is watched closely: it may give way
        finished = executor.wait_finished(BUSY_WAIT_SECONDS if busy else IDLE_POLL_SECONDS)
        if finished is not None:
            claimed, _, _ = in_flight.pop(id(finished.task))
            store.finish(claimed.submission.id, claimed.token, finished.outcome)


def _task(
    submission: StoredSubmission,
    source: bytes,
    packs: dict[str, ProblemPack],
    options: RunOptions,
    progress: StoredProgress,
) -> SubmissionTask | None:
    pack = packs.get(submission.problem_id)
    if pack is None:
        return None
    return SubmissionTask(
        owner=submission.student,
        source_path=submission.file_name,
        source=SourceFiles(submission.file_name, source),
        problem=pack,
        options=msgspec.structs.replace(options, language=submission.language),
        listener=progress,
    )


def _exit_through_cleanup(signum: int, frame: FrameType | None) -> None:
    """SIGTERM: leave through the executor's `with`, which stops its workers and what they run."""
    raise SystemExit(128 + signum)


def _exit_without_parent(parent_pid: int) -> None:
    """The server vanished (SIGKILL): exit at once; the pool's workers see it and clean up after themselves."""
    while os.getppid() == parent_pid:
        time.sleep(PARENT_CHECK_SECONDS)
    os._exit(1)
