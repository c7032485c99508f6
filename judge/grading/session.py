"""One grading run: find the pairs, judge those that are missing or stale, store each result as it arrives,
and write the gradebook.

The database is the run's memory. Results are committed one by one as they come back, so stopping the run in
any way loses only the pairs in flight, and the next run with the same arguments judges only what is missing
or changed. SIGTERM is turned into an exception for the duration of the judging, so it unwinds like Ctrl-C:
the executor stops its workers, nothing is left running, and the gradebook is not rewritten from half a run.
"""

from __future__ import annotations

import signal
import threading
from collections import deque
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from types import FrameType

from judge.grading.discovery import ClassFolder, LayoutChoice, load_problems, scan_class, source_limits
from judge.grading.executors import Executor, ExecutorChoice, open_executor
from judge.grading.gradebook import Gradebook
from judge.grading.packing import ProblemPack
from judge.grading.progress import GradeProgress
from judge.grading.store import Fingerprint, ResultStore, StoredResult
from judge.grading.tasks import GradeTask, Pair
from judge.options import RunOptions
from judge.problem import Problem
from judge.reporters.gradebook import write_views


@dataclass(frozen=True)
class GradeRequest:
    """Everything `judge grade` was asked to do."""

    problems_dir: Path
    class_dir: Path
    out_dir: Path
    layout: LayoutChoice
    executor: ExecutorChoice
    options: RunOptions
    force: bool = False
    partial: bool = False
    show_progress: bool = False


@dataclass(frozen=True)
class GradeSummary:
    """What a finished run did: `judged` pairs were sent to workers, `reused` were already up to date."""

    judged: int
    reused: int
    gradebook: Gradebook


class Terminated(BaseException):
    """SIGTERM arrived while judging. BaseException, like KeyboardInterrupt, so no `except Exception` stops it."""


class Interrupted(Exception):
    """The run was stopped by Ctrl-C or SIGTERM (`signal_number`); the message says how far it got."""

    def __init__(self, signal_number: int, stored: int, total: int) -> None:
        super().__init__(f"interrupted: {stored} of {total} pairs have a result; "
                         f"run the same command again to judge the rest")
        self.signal_number = signal_number


def grade(request: GradeRequest) -> GradeSummary:
    """Grade the class, writing results.sqlite as it goes and grades.csv, grades.json, report.html at the end."""
    problems = load_problems(request.problems_dir)
    class_folder = scan_class(request.class_dir, source_limits(problems, request.options), request.layout)
    tasks = make_tasks(problems, class_folder, request.options)
    with ResultStore(request.out_dir) as store:
        todo = stale_tasks(tasks, store.results(), force=request.force)
        if todo:
            try:
                with _sigterm_raises(), GradeProgress(len(todo), enabled=request.show_progress) as progress, \
                        open_executor(request.executor) as executor:
                    judge_tasks(todo, executor, store, progress)
            except (KeyboardInterrupt, Terminated) as stop:
                number = signal.SIGINT if isinstance(stop, KeyboardInterrupt) else signal.SIGTERM
                current = len(tasks) - len(stale_tasks(tasks, store.results(), force=False))
                raise Interrupted(number, current, len(tasks)) from None
        gradebook = Gradebook.build(problems, class_folder, store.results(), partial=request.partial)
    write_views(gradebook, request.out_dir)
    return GradeSummary(judged=len(todo), reused=len(tasks) - len(todo), gradebook=gradebook)


def make_tasks(problems: Mapping[str, Problem], class_folder: ClassFolder, options: RunOptions) -> list[GradeTask]:
    """A task per pair, with the source as the scan read it; each problem is packed once and shared by its tasks."""
    packs = {problem_id: ProblemPack.of(problem) for problem_id, problem in problems.items()}
    return [
        GradeTask(submission.student, submission.relative, submission.source, packs[submission.problem_id], options)
        for submission in class_folder.submissions
    ]


def stale_tasks(tasks: Sequence[GradeTask], stored: Mapping[Pair, StoredResult], *, force: bool) -> list[GradeTask]:
    """The tasks whose pair has no reusable result (all of them with `force`)."""
    return [
        task for task in tasks
        if force or task.pair not in stored or not stored[task.pair].is_current(Fingerprint.of(task))
    ]


def judge_tasks(tasks: Sequence[GradeTask], executor: Executor, store: ResultStore, progress: GradeProgress) -> None:
    """Judge every task on `executor`, at most `executor.capacity` at a time, storing each result as it arrives."""
    waiting = deque(tasks)
    in_flight = 0
    while waiting or in_flight:
        while waiting and in_flight < executor.capacity:
            executor.submit(waiting.popleft())
            in_flight += 1
        finished = executor.next_finished()
        in_flight -= 1
        store.record(finished.task, finished.outcome)
        progress.advance(finished.outcome.verdict)


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
