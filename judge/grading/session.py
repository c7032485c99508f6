"""One grading run: find the pairs, judge those that are missing or stale, store each result as it arrives,
and hand the gradebook to the command, which writes its views (judge/cli/grade.py, judge/reporters/gradebook/).

The database is the run's memory. Results are committed one by one as they come back, so stopping the run in
any way loses only the pairs in flight, and the next run with the same arguments judges only what is missing
or changed. The judging runs on the batch engine (judge/batch/), which stops its workers on Ctrl-C and SIGTERM
alike: nothing is left running, and the gradebook is not rewritten from half a run.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from contextlib import AbstractContextManager
from pathlib import Path

import msgspec.structs
from msgspec import Struct

from judge.batch.engine import Stopped, run_batch
from judge.batch.executors import ExecutorChoice, Finished
from judge.batch.order import Estimate
from judge.batch.packing import ProblemPack
from judge.batch.status_bar import StatusBar
from judge.batch.tasks import Pair, SubmissionTask
from judge.class_folder import ClassFolder, LayoutChoice, scan_class, source_limits
from judge.course.assignments import ASSIGNMENTS_FILE, read_course
from judge.course.extensions import EXTENSIONS_FILE, read_extensions
from judge.course.model import Course
from judge.course.roster import Roster, read_roster
from judge.errors import JudgeError
from judge.grading.course_grading import as_course, folder_attempts, graded_course
from judge.grading.gradebook import Gradebook
from judge.grading.results_db import GRADEBOOK_FOLDER, Fingerprint, ResultsDatabase, StoredResult
from judge.grading.stress_pairs import StressListener, minimal_inputs
from judge.options import RunOptions
from judge.output_folder import one_writer_at_a_time
from judge.problems.model import Problem
from judge.problems.scan import load_problems


class GradeRequest(Struct, frozen=True):
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
    stress_budget: float | None = None
    """Seconds per WA pair for `--stress` (None: no stress search)."""
    stress_told: StressListener | None = None
    """Told each `--stress` finding as its search ends, and each problem that cannot be searched (None: quiet)."""
    submissions_dir: Path = Path("submissions")
    roster: Path | None = None
    """roster.csv: the students' names, e-mails, SIS ids and sections for the views (None: the folder names)."""
    assignments: Path | None = None
    """The assignments file (None: the problems folder's assignments.yaml, if there is one)."""


class GradeSummary(Struct, frozen=True):
    """What a finished run did: `judged` pairs were sent to workers, `reused` were already up to date."""

    judged: int
    reused: int
    gradebook: Gradebook


LOCK_NAME = ".grade.lock"


def one_run_at_a_time(out_dir: Path) -> AbstractContextManager[None]:
    """Hold the `--out` folder's lock (judge/output_folder.py) from opening its database to writing its last view:
    two runs on one folder would judge every missing pair twice. A second run is refused in one line (exit 2)."""
    return one_writer_at_a_time(
        out_dir,
        LOCK_NAME,
        GRADEBOOK_FOLDER,
        lambda holder: (
            f"{out_dir}: another `judge grade`{holder} is writing this gradebook folder; "
            f"wait for it to end and run the same command again, or give another --out"
        ),
    )


class Interrupted(Exception):
    """The run was stopped by Ctrl-C or SIGTERM (`signal_number`); the message says how far it got."""

    def __init__(self, signal_number: int, stored: int, total: int, *, forced: bool) -> None:
        if forced:  # the pairs it did not reach stay listed in the database's judge_again: a plain run resumes
            message = (
                f"interrupted: {stored} of {total} pairs were judged again; run the command again without --force "
                f"to judge the other {total - stored} (with --force it starts over)"
            )
        else:
            message = (
                f"interrupted: {stored} of {total} pairs have a result; run the same command again to judge the rest"
            )
        super().__init__(message)
        self.signal_number = signal_number


def grade(request: GradeRequest, publish: Callable[[Gradebook], None]) -> GradeSummary:
    """Grade the class, writing results.sqlite as it goes, then `publish(gradebook)` (the command writes the views),
    holding the `--out` folder's lock throughout (a second run on the same folder is refused: `one_run_at_a_time`)."""
    problems = load_problems(request.problems_dir)
    roster = read_roster(request.roster) if request.roster is not None else None
    course, assignments_file = _course(request, problems, roster)  # a wrong file is told before any judging
    class_folder = scan_class(request.class_dir, source_limits(problems, request.options), request.layout)
    tasks = make_tasks(problems, class_folder, request.options)
    with one_run_at_a_time(request.out_dir):  # held until the last view is published
        gradebook, judged = judge_missing(request, problems, class_folder, tasks)
        submitted_at = {(each.student, each.problem_id): each.modified_ns / 1e9 for each in class_folder.submissions}
        gradebook = as_course(gradebook, course, folder_attempts(gradebook, submitted_at), roster, assignments_file)
        if request.stress_budget is not None:
            gradebook = msgspec.structs.replace(
                gradebook,
                stress=minimal_inputs(
                    problems,
                    class_folder,
                    gradebook.results,
                    request.stress_budget,
                    request.submissions_dir,
                    request.options,
                    request.stress_told,
                ),
            )
        publish(gradebook)
    return GradeSummary(judged=judged, reused=len(tasks) - judged, gradebook=gradebook)


def _course(request: GradeRequest, problems: Mapping[str, Problem], roster: Roster | None) -> tuple[Course, str | None]:
    """The course to grade by, and the file it came from: `--assignments`, else the problems folder's
    assignments.yaml when there is one, else none (each problem its own assignment, due never); with a roster,
    the extensions.csv beside it, as `judge serve` reads it."""
    path = request.assignments or request.problems_dir / ASSIGNMENTS_FILE
    if request.assignments is not None and not path.exists():
        raise JudgeError(f"{path}: no such assignments file; give --assignments the path of an assignments.yaml")
    source = str(path) if path.exists() else None
    course = read_course(path, problems.keys())
    if roster is not None:
        students = [row.id for row in roster.rows]
        extensions = read_extensions(roster.path.parent / EXTENSIONS_FILE, course, students)
        course = msgspec.structs.replace(course, extensions=extensions)
    return graded_course(course, problems, source), source


def judge_missing(
    request: GradeRequest, problems: Mapping[str, Problem], class_folder: ClassFolder, tasks: Sequence[SubmissionTask]
) -> tuple[Gradebook, int]:
    """Judge the tasks with no current result in the database, storing each as it arrives: the gradebook of every
    stored result, and how many tasks were judged."""
    with ResultsDatabase(request.out_dir) as database:
        todo = stale_tasks(tasks, database.results(), force=request.force)
        if request.force:
            database.judge_again(task.pair for task in todo)
        stored = database.results()  # read once: every result judged now is added as it is written
        if todo:
            progress = StatusBar(
                len(todo),
                enabled=request.show_progress,
                label="judging",
                unit="pairs",
                time_limits={pid: problem.spec.time_limit for pid, problem in problems.items()},
            )

            def keep(finished: Finished) -> None:
                task, outcome = finished.task, finished.outcome
                fingerprint = Fingerprint.of(task, outcome.judge_version)
                stored[task.pair] = database.record(task.pair, fingerprint, outcome, task.problem.test_count)

            try:
                run_batch(todo, request.executor, progress, keep, expected=previous_seconds(stored))
            except Stopped as stop:
                current = len(tasks) - len(stale_tasks(tasks, stored, force=False))
                raise Interrupted(stop.signal_number, current, len(tasks), forced=request.force) from None
        return Gradebook.build(problems, class_folder, stored, partial=request.partial), len(todo)


def previous_seconds(stored: Mapping[Pair, StoredResult]) -> Estimate:
    """How long a task is expected to take, to hand out the longest first: its pair's last result (the tests' wall
    time), else its test count times the stored results' seconds per test (1 with none), so both are seconds."""
    walls = {
        pair: sum(case.wall_seconds for case in row.result.cases)
        for pair, row in stored.items()
        if row.result is not None and row.result.cases
    }
    tests = sum(len(row.result.cases) for pair, row in stored.items() if pair in walls and row.result is not None)
    per_test = sum(walls.values()) / tests if tests else 1.0

    def expected(task: SubmissionTask) -> float:
        return walls.get(task.pair, task.problem.test_count * per_test)

    return expected


def make_tasks(problems: Mapping[str, Problem], class_folder: ClassFolder, options: RunOptions) -> list[SubmissionTask]:
    """A task per pair, with the source as the scan read it; each problem is packed once and shared by its tasks."""
    packs = {problem_id: ProblemPack.of(problem) for problem_id, problem in problems.items()}
    return [
        SubmissionTask(
            submission.student, submission.relative, submission.source, packs[submission.problem_id], options
        )
        for submission in class_folder.submissions
    ]


def stale_tasks(
    tasks: Sequence[SubmissionTask], stored: Mapping[Pair, StoredResult], *, force: bool
) -> list[SubmissionTask]:
    """The tasks whose pair has no reusable result (all of them with `force`)."""
    return [
        task
        for task in tasks
        if force or task.pair not in stored or not stored[task.pair].is_current(Fingerprint.of(task))
    ]
