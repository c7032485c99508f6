"""Where a failure of the judge becomes a verdict: the one definition of "the judge failed around a test case".

A checker or validator that raises or hangs (`JudgeFailure`), and the machine refusing the judge something
(`OSError`: starting a process, copying a test's stdin, writing a control group, a full temp folder) are the
judge's fault, never the student's: the case gets JE with the one line `reason` gives. Anything else is a bug
in the judge, left to the CLI's last-resort handler (one line, exit 3), not disguised as a verdict.

What a missing toolchain means differs per command, and is written down once here (README says the same).
"""

from __future__ import annotations

from enum import Enum

from judge.errors import JudgeFailure

JUDGE_FAILURES: tuple[type[JudgeFailure], type[OSError]] = (JudgeFailure, OSError)
"""What the judging boundaries catch. Not `Exception`: a bug must be seen as one, not become a verdict."""


def reason(error: JudgeFailure | OSError) -> str:
    """One line saying what failed. A `JudgeFailure` already is that line (so it is never wrapped twice)."""
    if isinstance(error, JudgeFailure):
        text = str(error)
    else:
        what = error.strerror or str(error) or type(error).__name__
        where = f" ({error.filename})" if error.filename else ""
        text = f"the judge failed: {what}{where}"
    return " ".join(text.split())


def as_failure(error: JudgeFailure | OSError) -> JudgeFailure:
    """The `JudgeFailure` to raise for `error`: itself, or a new one carrying `reason(error)`."""
    return error if isinstance(error, JudgeFailure) else JudgeFailure(reason(error))


class OnMissingToolchain(Enum):
    """What a command does when a submission's language has no toolchain on this machine."""

    USAGE_ERROR = "one line naming what to install, exit 2: the person asked for a language this machine lacks"
    SKIP = "the submission is listed as skipped, and does not fail the run: a CI box may lack a language"
    JUDGE_ERROR = "that pair gets JE with the line naming what to install; the rest of the class is graded"


MISSING_TOOLCHAIN: dict[str, OnMissingToolchain] = {
    "run": OnMissingToolchain.USAGE_ERROR,
    "verify": OnMissingToolchain.SKIP,
    "grade": OnMissingToolchain.JUDGE_ERROR,
}
"""The policy per command; tests/judging/test_judge_failures.py checks each command behaves as written here."""
