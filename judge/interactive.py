"""Interactive problems: the submission and the problem's output validator run at the same time, the validator's
stdout piped to the submission's stdin and the submission's stdout to the validator's stdin, through the judge
(one relay thread per direction), which so knows which side stopped first.

Each runs under its own limits in its own control group (`execute.run`, one thread each), so the submission's
CPU time is its own, and each run kills everything it started: nothing of either survives the test. The
validator's wall limit is its own plus the submission's, since it spends its time waiting for the submission.

The verdict follows problemtools: the validator failing (an exit other than 42/43) is JE; a validator that
rejects before the submission ends decides (WA); otherwise a submission that ran out of time or crashed gets
TLE or RE (and so on); otherwise the validator's verdict. A validator killed by SIGPIPE because the submission
had already gone counts as rejecting, as problemtools' runner ignores SIGPIPE for it.
"""

from __future__ import annotations

import dataclasses
import os
import signal
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

from judge import execute
from judge.checkers.base import CheckResult
from judge.checkers.program import ProgramChecker
from judge.classify import classify
from judge.errors import JudgeFailure
from judge.execute import Limits, RunSpec, RunStats
from judge.problem import TestCase
from judge.verdicts import Verdict

SIGPIPE_EXIT = 128 + signal.SIGPIPE
RELAY_CHUNK = 64 * 1024


@dataclass(frozen=True)
class Interaction:
    """What one interactive test gave: the submission's run, and the verdict with its message (and the score the
    validator gave, when its verdict stands)."""

    submission: RunStats
    verdict: Verdict
    message: str
    score: float | None = None


def interact(submission: RunSpec, limits: Limits, memory_errors: tuple[str, ...], validator: ProgramChecker,
             test: TestCase) -> Interaction:
    """Run `submission` against `validator` on `test`, the judge relaying between their pipes."""
    checker = validator.prepare(input=test.input_path.read_bytes(), output=b"", answer=test.answer_path.read_bytes())
    checker_limits = dataclasses.replace(validator.limits,
                                         wall_seconds=validator.limits.wall_seconds + limits.wall_seconds)
    to_submission, from_submission, to_validator, from_validator = os.pipe(), os.pipe(), os.pipe(), os.pipe()
    program = dataclasses.replace(submission, stdin_fd=to_submission[0], stdout_fd=from_submission[1])
    checker = dataclasses.replace(checker, stdin_fd=to_validator[0], stdout_fd=from_validator[1])
    with ThreadPoolExecutor(max_workers=4, thread_name_prefix="interactive") as pool:
        validator_said = pool.submit(_relay, from_validator[0], to_submission[1])
        submission_said = pool.submit(_relay, from_submission[0], to_validator[1])
        ran = pool.submit(_run, program, limits)
        checked = pool.submit(_run, checker, checker_limits)
        sub_stats, val_stats = ran.result(), checked.result()
        validator_first = validator_said.result() < submission_said.result()
    submission_failure = classify(sub_stats, limits, memory_errors)
    if _broken_pipe(val_stats) and not validator_first:
        decided = CheckResult(Verdict.WA, "the submission stopped before the interaction ended")
    else:
        decided = validator.conclude(val_stats)  # JudgeFailure (JE) when the validator itself failed
    if decided.verdict is not Verdict.AC and validator_first:
        return Interaction(sub_stats, decided.verdict, decided.message, decided.score)
    if submission_failure is not None:
        return Interaction(sub_stats, submission_failure.verdict, submission_failure.message)
    return Interaction(sub_stats, decided.verdict, decided.message, decided.score)


def _relay(source: int, target: int) -> float:
    """Copy one side's output to the other's input until it ends, and return when it ended. The other side sees
    that end only after this, so the two times order the ends by cause, whatever the threads' timing. Once the
    reader has gone, the rest is read and dropped: the writer then learns of it when its own input ends."""
    reader_gone = False
    try:
        while chunk := os.read(source, RELAY_CHUNK):
            if reader_gone:
                continue
            try:
                _write_all(target, chunk)
            except BrokenPipeError:
                reader_gone = True
        return time.monotonic()
    finally:
        os.close(source)
        os.close(target)


def _write_all(target: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(target, view):]


def _run(spec: RunSpec, limits: Limits) -> RunStats:
    """One side of the interaction; its `ended_at` tells which side stopped first."""
    try:
        return execute.run(spec, limits)
    except OSError as error:
        raise JudgeFailure(f"the judge could not run one side of the interaction: {error}") from None


def _broken_pipe(stats: RunStats) -> bool:
    return stats.signal == signal.SIGPIPE or stats.exit_code == SIGPIPE_EXIT
