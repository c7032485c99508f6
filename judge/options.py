"""Run options: chosen once on the command line, then passed down frozen (no global state)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

SandboxChoice = Literal["auto", "bwrap", "none"]


@dataclass(frozen=True)
class RunOptions:
    """How to judge a submission.

    language: a language name overriding detection by extension (`--lang pypy3`).
    fail_fast: stop at the first non-AC test.
    sandbox: `auto` uses bubblewrap when it works here, `bwrap` insists on it, `none` runs unconfined.
    """

    language: str | None = None
    fail_fast: bool = False
    sandbox: SandboxChoice = "auto"
