"""Interactive problems: the submission and the problem's output validator run at the same time, the validator's
stdout piped to the submission's stdin and the submission's stdout to the validator's stdin, through the judge
(one relay thread per direction), which so knows which side stopped first.

Each runs under its own limits in its own run of the containment the command chose (one thread each: the
submission through `execute.run`, the validator through its `ProblemPrograms`), so the submission's CPU time is
its own, and each run kills everything it started: nothing of either survives the test. The
validator's wall limit is its own plus the submission's, since it spends its time waiting for the submission.
What the submission sends is capped by its output limit, as a file would be: the relay stops there.
Each side's pipes reach its program past bwrap's own processes (`sandbox.pipes_past_the_wrapper`), so either side
closing its output is an end of input for the other even while it goes on running.

The verdict follows problemtools, with the submission's behaviour deciding the submission's verdict:
- a submission that sent more than its output limit before the validator finished is OLE, whatever the
  validator then made of the cut conversation (else one endless line killed the validator at its memory limit,
  and the student's garbage became JE);
- the validator failing (an exit other than 42/43, its own limit) is JE;
- a validator that rejected before the submission ended decides (WA): it ended first if its output ended before
  the submission's, or before the judge stopped the submission at a limit (one that closes its pipes and sleeps
  is WA once the validator rejected, not TLE);
- otherwise a submission that ran out of time or crashed gets TLE or RE (and so on); otherwise the validator's
  verdict. A validator killed by SIGPIPE because the submission had already gone counts as rejecting, as
  problemtools' runner ignores SIGPIPE for it.
"""

from __future__ import annotations

import os
import signal
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

import msgspec.structs
from msgspec import Struct

from judge.checkers.base import CheckResult
from judge.checkers.program import ProgramChecker
from judge.errors import JudgeFailure
from judge.problems.model import TestCase
from judge.runner import execute
from judge.runner.classify import Classification, classify
from judge.runner.containment.protocol import Containment
from judge.runner.execute import RunSpec, RunStats
from judge.runner.limits import MIB, Limits
from judge.runner.sandbox import pipes_past_the_wrapper
from judge.verdicts import Verdict

SIGPIPE_EXIT = 128 + signal.SIGPIPE
RELAY_CHUNK = 64 * 1024


class Interaction(Struct, frozen=True):
    """What one interactive test gave: the submission's run, and the verdict with its message (and the score the
    validator gave, when its verdict stands)."""

    submission: RunStats
    verdict: Verdict
    message: str
    score: float | None = None


def interact(
    submission: RunSpec,
    limits: Limits,
    memory_errors: tuple[str, ...],
    containment: Containment,
    validator: ProgramChecker,
    test: TestCase,
) -> Interaction:
    """Run `submission` (contained by the judging setup's `containment`) against `validator` on `test`, the judge
    relaying between their pipes."""
    checker = validator.prepare(input=test.input_path.read_bytes(), output=b"", answer=test.answer_path.read_bytes())
    checker_limits = msgspec.structs.replace(
        validator.limits, wall_seconds=validator.limits.wall_seconds + limits.wall_seconds
    )
    to_submission, from_submission, to_validator, from_validator = os.pipe(), os.pipe(), os.pipe(), os.pipe()
    program = _piped(submission, to_submission[0], from_submission[1])
    checker = _piped(checker, to_validator[0], from_validator[1])
    with ThreadPoolExecutor(max_workers=4, thread_name_prefix="interactive") as pool:
        validator_said = pool.submit(_relay, from_validator[0], to_submission[1])
        submission_said = pool.submit(_relay, from_submission[0], to_validator[1], limits.output_mib * MIB)
        ran = pool.submit(_run, lambda: execute.run(program, limits, containment))
        checked = pool.submit(_run, lambda: validator.run(checker, checker_limits))
        sub_stats, val_stats = ran.result(), checked.result()
        validator_end, submission_end = validator_said.result(), submission_said.result()
    validator_first = validator_end.at < submission_end.at or (
        sub_stats.stopped_at is not None and validator_end.at < sub_stats.stopped_at
    )
    submission_failure: Classification | None
    if submission_end.cut:
        submission_failure = Classification(Verdict.OLE, f"output to the validator over {limits.output_mib} MiB")
        if not validator_first:
            return Interaction(sub_stats, submission_failure.verdict, submission_failure.message)
    else:
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


def _piped(spec: RunSpec, stdin: int, stdout: int) -> RunSpec:
    """`spec` reading `stdin` and writing `stdout` (pipe ends), which only its program holds."""
    return msgspec.structs.replace(spec, argv=pipes_past_the_wrapper(spec.argv), stdin_fd=stdin, stdout_fd=stdout)


class _Ended(Struct, frozen=True):
    """When one side's output ended (time.monotonic), and whether the relay cut it at the sender's limit."""

    at: float
    cut: bool = False


def _relay(source: int, target: int, limit_bytes: int | None = None) -> _Ended:
    """Copy one side's output to the other's input until it ends, and return when it ended. The other side sees
    that end only after this, so the two times order the ends by cause, whatever the threads' timing. Once the
    reader has gone, the rest is read and dropped: the writer then learns of it when its own input ends.
    Past `limit_bytes` in all the relay stops: the reader sees the end of its input, the writer a broken pipe."""
    reader_gone, sent = False, 0
    try:
        while chunk := os.read(source, RELAY_CHUNK):
            sent += len(chunk)
            if limit_bytes is not None and sent > limit_bytes:
                return _Ended(time.monotonic(), cut=True)
            if reader_gone:
                continue
            try:
                _write_all(target, chunk)
            except BrokenPipeError:
                reader_gone = True
        return _Ended(time.monotonic())
    finally:
        os.close(source)
        os.close(target)


def _write_all(target: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(target, view) :]


def _run(side: Callable[[], RunStats]) -> RunStats:
    """One side of the interaction (a failure to run it is the judge's)."""
    try:
        return side()
    except OSError as error:
        raise JudgeFailure(f"the judge could not run one side of the interaction: {error}") from None


def _broken_pipe(stats: RunStats) -> bool:
    return stats.signal == signal.SIGPIPE or stats.exit_code == SIGPIPE_EXIT
