"""The search behind a counterexample (counterexamples.py says what a student asks and sees): `judge stress` on
generated inputs only, run by the judging process in a process of its own.

`Searches` takes one of the workers' places: a request is claimed only when no submission is queued (the store
checks, in the claim's transaction) and a worker is free; when a submission is queued while every worker is busy,
the request's claim is given back (it is searched again later) and the submission takes the search's worker at
once, while the search stops after its current trial, since its claim no longer holds (`store.claim_holds`, asked
between trials). The search process runs at a lower priority (SEARCH_NICENESS), so in that one trial's overlap,
and whenever it runs beside the judging, the submissions have the CPU first. A restart (which releases every
claim) loses or doubles no request. A search whose judging process is gone (the server killed) stops after its
trial too.

What never leaks: the search judges no bundled test (`StressRequest.generated_only`: an input equal to any test's
input byte for byte counts as passing), and the input found is compared once more with every test input before it
is stored (a match is stored as "nothing found"). It is bounded by `judge stress`'s own default budget and number of
inputs, runs boxed like every judging (the options the server was given), and must be small (MAX_INPUT_BYTES); the
outputs stored are cut at MAX_OUTPUT_BYTES.
"""

from __future__ import annotations

import multiprocessing
import os
import tempfile
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path
from types import TracebackType

import msgspec.structs
from msgspec import Struct

from judge.batch.executors.local import prepare_worker
from judge.errors import JudgeError
from judge.judging.failures import JUDGE_FAILURES, reason
from judge.options import RunOptions
from judge.problems.scan import load_problems
from judge.serve.store import ClaimedCounterexample, CounterexampleResult, Store, claim_holds
from judge.stress import (
    DEFAULT_BUDGET_SECONDS,
    DEFAULT_MAX_EXAMPLES,
    StressRequest,
    bundled_inputs,
    search_setup,
    stress,
)
from judge.verdicts import Verdict

SEARCH_SEED = 0
"""Every search is seeded alike, so asking again about the same submission shows the same input."""
MAX_INPUT_BYTES = 4096
"""A counterexample larger than this is not shown ("nothing small found"): it is meant to be read."""
MAX_OUTPUT_BYTES = 4096
"""The expected and the actual output are cut here."""
SEARCH_NICENESS = 10
"""The search process and what it starts yield the CPU to the judging of submissions (its verdicts are not a
student's grade; a TLE found under contention is only a counterexample less)."""
REFERENCES_FOLDER = "submissions"
"""Beside the problems folder: `submissions/<id>/accepted/` holds a problem's references (a package has its own)."""


class SearchJob(Struct, frozen=True):
    """What a search needs, pickled into the search process: where the problems and the database are, the
    submission as stored, and the claim the search must still hold between trials."""

    problems_dir: Path
    database: Path
    options: RunOptions
    claimed: ClaimedCounterexample
    judging_pid: int
    """The judging process: once it is gone (even by SIGKILL), the search stops after its trial, leaving nothing."""


def search(job: SearchJob) -> CounterexampleResult:
    """Find a small generated input the submission fails on; never raises (a failure is `found="failed"`)."""
    try:
        return _search(job)
    except JudgeError as error:
        return CounterexampleResult("failed", message=str(error))
    except JUDGE_FAILURES as error:
        return CounterexampleResult("failed", message=reason(error))
    except Exception as error:  # noqa: BLE001 -- a bug costs one request, not the judging process; one line says which
        return CounterexampleResult("failed", message=f"the judge crashed: {type(error).__name__}: {error}")


def _search(job: SearchJob) -> CounterexampleResult:
    request = job.claimed.request
    problem = load_problems(job.problems_dir).get(request.problem_id)
    if problem is None:
        return CounterexampleResult("failed", message=f"the problem {request.problem_id!r} is no longer there")
    submissions_dir = job.problems_dir.parent / REFERENCES_FOLDER
    setup = search_setup(problem, None, submissions_dir)
    with tempfile.TemporaryDirectory(prefix="judge-counterexample-") as scratch:
        source = Path(scratch) / job.claimed.file_name
        source.write_bytes(job.claimed.source)
        report = stress(
            StressRequest(
                problem=problem,
                source=source,
                reference=setup.reference,
                submissions_dir=submissions_dir,
                budget_seconds=DEFAULT_BUDGET_SECONDS,
                max_examples=DEFAULT_MAX_EXAMPLES,
                seed=SEARCH_SEED,
                options=msgspec.structs.replace(job.options, language=job.claimed.language),
                setup=setup,
                generated_only=True,
                stop=lambda: (
                    os.getppid() != job.judging_pid or not claim_holds(job.database, request.id, job.claimed.token)
                ),
            ),
            lambda *_: None,
        )
    failure = report.failure
    if failure is None or failure.verdict is Verdict.CE:
        return CounterexampleResult("none", message=_nothing_found(report.judged, report.budget_spent))
    if failure.input in bundled_inputs(problem):  # never shown, whatever the search did
        return CounterexampleResult(
            "none", message="every failing input found is one of the tests", judged=report.judged
        )
    if len(failure.input) > MAX_INPUT_BYTES:
        return CounterexampleResult(
            "none", message=f"the smallest failing input found is {len(failure.input)} bytes, too big to show"
        )
    return CounterexampleResult(
        "found",
        input=failure.input,
        expected=failure.expected[:MAX_OUTPUT_BYTES],
        actual=failure.actual[:MAX_OUTPUT_BYTES],
        verdict=failure.verdict.short,
        message=failure.message,
        judged=report.judged,
    )


def _nothing_found(judged: int, budget_spent: bool) -> str:
    bound = "its time ran out" if budget_spent else "every generated input passed or was a test's"
    return f"no failing input among {judged} generated input(s) judged ({bound})"


class Searches:
    """The judging process's search process: one search at a time, counted as a busy worker (`busy`) until its
    claim is given back to make room for a submission (it then winds down, niced, within its trial); no other
    search starts before it has returned."""

    def __init__(self, store: Store, judging_process: str, problems_dir: Path, options: RunOptions) -> None:
        self._store = store
        self._judging_process = judging_process
        self._problems_dir = problems_dir
        self._options = options
        self._pool: ProcessPoolExecutor | None = None
        self._running: tuple[ClaimedCounterexample, Future[CounterexampleResult]] | None = None
        self._given_back = False

    @property
    def busy(self) -> int:
        return 0 if self._running is None or self._given_back else 1

    def give_way(self) -> None:
        """A submission waits for a worker: give the request back to the queue and the worker to the submission;
        the search stops after its trial."""
        if self._running is not None and not self._given_back:
            claimed = self._running[0]
            self._store.release_counterexample(claimed.request.id, claimed.token)
            self._given_back = True

    def start_next(self) -> None:
        """Claim the oldest request (only while no submission is queued: the store checks) and start its search."""
        if self._running is not None:
            return
        claimed = self._store.claim_counterexample(self._judging_process)
        if claimed is None:
            return
        job = SearchJob(self._problems_dir, self._store.path, self._options, claimed, os.getpid())
        self._running = (claimed, self._submit(job))
        self._given_back = False

    def collect(self) -> None:
        """Store the running search's result if it has one (under its claim: a given-back one changes nothing)."""
        if self._running is None or not self._running[1].done():
            return
        claimed, future = self._running
        self._running = None
        try:
            result = future.result()
        except BrokenProcessPool:
            result = CounterexampleResult("failed", message="the search process died")
            self._pool = None
        self._store.finish_counterexample(claimed.request.id, claimed.token, result)

    def _submit(self, job: SearchJob) -> Future[CounterexampleResult]:
        if self._pool is None:
            self._pool = _search_pool()
        try:
            return self._pool.submit(search, job)
        except BrokenProcessPool:
            self._pool = _search_pool()
            return self._pool.submit(search, job)

    def __enter__(self) -> Searches:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, traceback: TracebackType | None
    ) -> None:
        """Stop: the running search's claim is given back (it stops after its trial), and its process ends."""
        self.give_way()
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)


def _search_pool() -> ProcessPoolExecutor:
    return ProcessPoolExecutor(
        max_workers=1,
        mp_context=multiprocessing.get_context("spawn"),
        initializer=_prepare_search_process,
        initargs=(os.getpid(),),
    )


def _prepare_search_process(parent_pid: int) -> None:
    """Like a judging worker: it ends its trial's processes and exits once the judging process is gone (an idle
    pool process would otherwise wait for a next search forever), and it runs niced (SEARCH_NICENESS)."""
    prepare_worker(parent_pid)
    os.nice(SEARCH_NICENESS)
