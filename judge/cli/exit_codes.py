"""The exit codes of every command, in one enum: scripts and CI read them, so each means one thing."""

from __future__ import annotations

import signal
from enum import IntEnum


class ExitCode(IntEnum):
    """0 and 1 are the answer; 2 and 3 say no answer could be given, and whose fault that is."""

    ACCEPTED = 0
    """`run`: accepted; `verify`: everything verified; `grade`: the grading completed."""
    REJECTED = 1
    """`run`: any other verdict; `verify`: a mismatch or invalid test data."""
    USAGE = 2
    """Bad input from a person: one line on stderr naming the file (or option) and the fix. Also a request the
    person must change, where the judge did not fail: a second `judge grade` on an `--out` another run holds."""
    JUDGE_FAILED = 3
    """The judge itself failed (JE), its machine refused it (a full `--out` disk), or a bug in it: one line."""
    INTERRUPTED = 128 + signal.SIGINT
    """Ctrl-C before a command's own handling (`grade` exits 128 + the signal's number)."""

    @classmethod
    def for_signal(cls, number: int) -> int:
        """What a command stopped by signal `number` exits with, as a shell reports it."""
        return 128 + number
