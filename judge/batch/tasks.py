"""The unit of work of a batch: one submission on one problem, self-contained, and what comes back from it. `judge
grade` makes one per (student, problem) pair, `judge verify` one per reference submission.

`run_task` is what executors run on a worker. It needs nothing from the grading machine's disk: the problem and
the source travel inside the `SubmissionTask`; the problem is unpacked into a fresh temporary folder and the source
(its files as read: languages/sources.py) judged on it by `judge_submission`, the engine behind `judge run`.
"""

from __future__ import annotations

import os
import socket
import tempfile
from pathlib import Path

import msgspec.structs
from msgspec import Struct

from judge import __version__
from judge.batch.packing import ProblemPack
from judge.errors import JudgeError, ToolchainMissing
from judge.judging.failures import JUDGE_FAILURES, reason
from judge.judging.results import CaseListener, SubmissionResult
from judge.judging.submission import judge_submission
from judge.languages.sources import SourceFiles
from judge.options import RunOptions
from judge.problems.load import load_problem_folder
from judge.verdicts import Verdict

Pair = tuple[str, str]
"""(owner, problem id): the key of a result (for grade, the owner is the student: the key of the results database
and the gradebook)."""


class SubmissionTask(Struct, frozen=True):
    """One submission to judge on one problem. `owner` says whose it is: a student (grade, serve), or for verify the
    reference's verdict folder and file (`accepted/sol.py`); `source_path` is its path as reports show it (inside
    the class folder, for grade).
    `listener`, when given, hears of the judging as it goes, on the worker (`judge serve` shows "test k of n"); it
    travels with the task, so it must pickle and must not raise."""

    owner: str
    source_path: str
    source: SourceFiles
    problem: ProblemPack
    options: RunOptions
    listener: CaseListener | None = None

    @property
    def pair(self) -> Pair:
        return (self.owner, self.problem.problem_id)


class SubmissionOutcome(Struct, frozen=True):
    """What judging one task gave: the verdict and the full typed result, or JE with `error` saying why the pair
    could not be judged (then `result` is None). `worker` names who judged it. Pickled to and from a Dask worker
    as it is; only the results database stores it as JSON."""

    verdict: Verdict
    tests_passed: int
    result: SubmissionResult | None
    error: str
    worker: str
    judge_version: str = __version__
    missing_toolchain: bool = False

    @classmethod
    def failure(cls, error: str, worker: str, *, missing_toolchain: bool = False) -> SubmissionOutcome:
        """JE with `error`; `missing_toolchain` tells a missing compiler apart, for verify's policy (skipped)."""
        return cls(
            verdict=Verdict.JE,
            tests_passed=0,
            result=None,
            error=error,
            worker=worker,
            missing_toolchain=missing_toolchain,
        )


def run_task(task: SubmissionTask) -> SubmissionOutcome:
    """Judge one task in a fresh temporary folder.

    Idempotent (nothing outside that folder is touched), so an executor may run it again after losing a worker.
    Never raises for a failing submission or a failing judge: both come back as an outcome, the latter as JE.
    """
    worker = f"{socket.gethostname()}:{os.getpid()}"
    try:
        result = _judge_in_scratch(task)
    except ToolchainMissing as missing:
        return SubmissionOutcome.failure(str(missing), worker, missing_toolchain=True)
    except JudgeError as error:  # grade's policy for a missing toolchain (judge/judging/failures.py) is JE
        return SubmissionOutcome.failure(str(error), worker)
    except JUDGE_FAILURES as error:  # e.g. a full temp folder while unpacking the problem
        return SubmissionOutcome.failure(reason(error), worker)
    except Exception as error:  # noqa: BLE001 -- a bug in the judge must cost one task, not the batch; one line says which
        return SubmissionOutcome.failure(
            f"the judge crashed (a bug; please report it): {type(error).__name__}: {' '.join(str(error).split())}",
            worker,
        )
    shown = msgspec.structs.replace(result, submission=task.source_path)
    return SubmissionOutcome(verdict=result.verdict, tests_passed=result.passed, result=shown, error="", worker=worker)


def _judge_in_scratch(task: SubmissionTask) -> SubmissionResult:
    with tempfile.TemporaryDirectory(prefix="judge-grade-") as scratch_name:
        scratch = Path(scratch_name)
        problem = load_problem_folder(task.problem.unpack(scratch / "problem" / task.problem.folder))
        return judge_submission(problem, task.source, task.options, task.listener)
