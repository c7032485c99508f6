"""The local executor: a pool of worker processes on this machine, one judging at a time per worker.

Workers are started with `spawn`, not `fork`: the grading process runs threads (rich's refresh thread, the
pool's manager thread), and forking a process with threads can deadlock the child.

Stopping never interrupts a worker's Python code (an exception raised by a signal handler can land inside a
cleanup and be swallowed or break it). Instead the submissions' processes are killed: the judging in progress
then races through its remaining tests, cleaning up after each as usual, and the worker becomes idle.

- Ctrl-C reaches every process of the terminal's process group; workers ignore it and let the grading process
  decide. The grading process (on Ctrl-C or SIGTERM) cancels the queued tasks, kills the submissions' processes
  until the workers have finished their pairs and exited, and kills any worker still there after STOP_SECONDS.
- A worker whose grading process vanished (SIGKILL, crash) notices that its parent changed, kills the
  submissions' processes until its pair is over, and exits instead of waiting forever for work.
- A worker is started whole or not at all: Ctrl-C and SIGTERM wait while the pool starts one (`stops_held`). Raised
  in the middle, the grading process lost track of a worker it had started, which then died on its half-sent
  start-up data with a traceback; and a Ctrl-C reaching a worker before it ignores Ctrl-C killed it the same way.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import threading
import time
from collections import deque
from collections.abc import Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from contextlib import contextmanager
from types import FrameType, TracebackType

import psutil

from judge.batch.executors.base import Finished
from judge.batch.executors.lanes import Lanes
from judge.batch.tasks import SubmissionOutcome, SubmissionTask, run_task

STOP_SECONDS = 10.0
"""How long stopping workers may take before they are killed outright."""
PARENT_CHECK_SECONDS = 0.5
POLL_SECONDS = 0.02
QUIET_SECONDS = 1.0
"""An orphaned worker's pair is over once no process has appeared under it for this long."""
STOP_SIGNALS = frozenset({signal.SIGINT, signal.SIGTERM})


class LocalExecutor:
    """`jobs` worker processes; tasks run with `run_task` exactly as on a Dask worker.

    When a worker process dies (an unconfined submission can kill its parent), the pool breaks and every task in
    it fails, though only one was to blame. Those tasks become suspects and are run again one at a time, with
    new tasks held back meanwhile: a suspect that breaks the pool when it is alone is the culprit and gets JE,
    the others get their real verdicts.
    """

    def __init__(self, jobs: int, spare: int = 0) -> None:
        if jobs < 1 or spare < 0:
            raise ValueError(f"jobs must be at least 1 and spare at least 0, got {jobs} and {spare}")
        self._lanes = Lanes(jobs, spare)
        self._pool = self._start_pool()
        self._running: dict[Future[SubmissionOutcome], SubmissionTask] = {}
        self._suspects: deque[SubmissionTask] = deque()
        self._alone: SubmissionTask | None = None
        self._held: deque[SubmissionTask] = deque()

    def _start_pool(self) -> ProcessPoolExecutor:
        return ProcessPoolExecutor(
            max_workers=self._lanes.processes,
            mp_context=multiprocessing.get_context("spawn"),
            initializer=prepare_worker,
            initargs=(os.getpid(),),
        )

    @property
    def capacity(self) -> int:
        # One task queued behind each running one, so no worker waits while the main process stores a result.
        return 2 * self._lanes.workers

    def submit(self, task: SubmissionTask) -> None:
        if self._suspects or self._alone is not None:
            self._held.append(task)
        else:
            self._start(task)

    def _start(self, task: SubmissionTask) -> None:
        with stops_held():  # a submit may start a worker (the pool starts them as work arrives)
            try:
                future = self._pool.submit(run_task, task)
            except BrokenProcessPool:  # the pool refuses work once a worker died: continue on a new one
                self._pool.shutdown(wait=True)
                self._pool = self._start_pool()
                future = self._pool.submit(run_task, task)
            self._running[future] = task

    @property
    def workers(self) -> int:
        return self._lanes.workers

    @property
    def lanes(self) -> Lanes:
        return self._lanes

    def next_finished(self) -> Finished:
        finished = self._finished(None)
        if finished is None:
            raise RuntimeError("next_finished() with no task submitted")
        return finished

    def wait_finished(self, timeout: float) -> Finished | None:
        return self._finished(timeout)

    def _finished(self, timeout: float | None) -> Finished | None:
        """The next task to finish within `timeout` seconds (None: however long it takes), else None. A task of a
        broken pool becomes a suspect and the wait goes on."""
        deadline = None if timeout is None else time.monotonic() + timeout
        while True:
            if not self._running:
                self._start_waiting()
                if not self._running:
                    return None
            left = None if deadline is None else max(0.0, deadline - time.monotonic())
            done, _ = wait(self._running, timeout=left, return_when=FIRST_COMPLETED)
            if not done:
                return None
            future = next(iter(done))
            task = self._running.pop(future)
            alone = task is self._alone
            if alone:
                self._alone = None
            try:
                return Finished(task, future.result())
            except BrokenProcessPool:
                if alone:
                    return Finished(
                        task,
                        SubmissionOutcome.failure(
                            "its worker process died while judging it, also when it was judged alone", "local pool"
                        ),
                    )
                self._suspects.append(task)

    def _start_waiting(self) -> None:
        """With nothing running: the next suspect alone, or, once every suspect is cleared, the held tasks."""
        if self._suspects:
            self._alone = self._suspects.popleft()
            self._start(self._alone)
            return
        while self._held:
            self._start(self._held.popleft())

    def __enter__(self) -> LocalExecutor:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, traceback: TracebackType | None
    ) -> None:
        if kind is None:
            self._pool.shutdown(wait=True)
        else:
            self._stop_workers()

    def _stop_workers(self) -> None:
        """Cancel the queued tasks and end the running ones by killing the submissions' processes, so each worker
        finishes its pair at once, through its own cleanup, and exits; kill what is left after STOP_SECONDS."""
        # ProcessPoolExecutor has no public list of its workers before Python 3.14 (terminate_workers()).
        pids = list(self._pool._processes or ())
        self._pool.shutdown(wait=False, cancel_futures=True)
        workers = []
        for pid in pids:
            try:
                workers.append(psutil.Process(pid))
            except psutil.NoSuchProcess:
                continue
        deadline = time.monotonic() + STOP_SECONDS
        while workers and time.monotonic() < deadline:
            for worker in workers:
                _kill_leaves(worker)
            _, workers = psutil.wait_procs(workers, timeout=POLL_SECONDS)
        for worker in workers:  # stuck: give up on an orderly end
            try:
                stuck = [*worker.children(recursive=True), worker]
            except psutil.NoSuchProcess:
                continue
            for process in stuck:
                try:
                    process.kill()
                except psutil.NoSuchProcess:
                    continue


@contextmanager
def stops_held() -> Iterator[None]:
    """Ctrl-C and SIGTERM wait until the block is over, then arrive as if sent at its end.

    Inside, the signals are blocked in this thread, so that a process started here starts with them blocked
    (`prepare_worker` unblocks them once its own handlers are set); and, in the main thread, where Python runs
    signal handlers, a signal another thread received is only noted until the block ends."""
    arrived: list[int] = []

    def note(number: int, frame: FrameType | None) -> None:
        arrived.append(number)

    main_thread = threading.current_thread() is threading.main_thread()
    handlers = {number: signal.signal(number, note) for number in STOP_SIGNALS} if main_thread else {}
    mask = signal.pthread_sigmask(signal.SIG_BLOCK, STOP_SIGNALS)
    try:
        yield
    finally:
        for stop, handler in handlers.items():
            signal.signal(stop, handler)
        for number in dict.fromkeys(arrived):  # sent again, pending until the signals are unblocked
            signal.pthread_kill(threading.get_ident(), number)
        signal.pthread_sigmask(signal.SIG_SETMASK, mask)  # what is pending arrives now, as any signal would


def prepare_worker(parent_pid: int) -> None:
    """Runs once in each new worker process (see the module docstring for why); serve's counterexample search
    process runs it too, so that it never outlives the judging process that started it. The worker started
    with Ctrl-C and SIGTERM blocked (`stops_held`): a Ctrl-C that came meanwhile is dropped, a SIGTERM ends it."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, _exit_now)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, STOP_SIGNALS)
    threading.Thread(target=_watch_parent, args=(parent_pid,), name="watch-parent", daemon=True).start()


def _exit_now(signum: int, frame: FrameType | None) -> None:
    """SIGTERM from outside (the grading process never sends one): end the submission's processes, reaping
    them since the judging they belong to will not, then exit."""
    me = psutil.Process()
    deadline = time.monotonic() + STOP_SECONDS
    while _kill_leaves(me) and time.monotonic() < deadline:
        time.sleep(POLL_SECONDS)
        try:
            while os.waitpid(-1, os.WNOHANG)[0]:
                continue
        except ChildProcessError:
            continue
    os._exit(128 + signum)


def _watch_parent(parent_pid: int) -> None:
    """Once the grading process is gone, kill the submissions' processes until the pair in progress is over
    (no new process for QUIET_SECONDS), then exit instead of waiting forever for the next task."""
    while os.getppid() == parent_pid:
        time.sleep(PARENT_CHECK_SECONDS)
    me = psutil.Process()
    quiet_since = time.monotonic()
    while time.monotonic() - quiet_since < QUIET_SECONDS:
        if _kill_leaves(me):
            quiet_since = time.monotonic()
        time.sleep(POLL_SECONDS)
    os._exit(0)


def _kill_leaves(process: psutil.Process) -> bool:
    """SIGKILL the descendants of `process` that have no children; whether it had any descendants.

    Leaves first, so that every parent sees its child die and reaps it (bwrap then exits with its child, and
    `execute.run` reaps bwrap). Killing a parent first would hand its children to init, which in a container
    may never reap them, and a zombie pins the run's control group so that it cannot be removed.
    """
    try:
        descendants = process.children(recursive=True)
    except psutil.NoSuchProcess:
        return False
    parents = set()
    for descendant in descendants:
        try:
            parents.add(descendant.ppid())
        except psutil.NoSuchProcess:
            continue
    for descendant in descendants:
        if descendant.pid not in parents:
            try:
                descendant.kill()
            except psutil.NoSuchProcess:
                continue
    return bool(descendants)
