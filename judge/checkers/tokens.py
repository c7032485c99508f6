"""`tokens`: only the sequence of whitespace-separated tokens matters, never the layout.

For problems whose output format is loose (BOJ problems marked "spacing does not matter"); a wrong token is WA
with the line it is on.
"""

from __future__ import annotations

from judge.checkers.base import CheckResult, accepted, wrong
from judge.checkers.text import describe, find_token_mismatch, lines


class TokensChecker:
    """AC if the output's whitespace-separated tokens equal the answer's, however they are spaced or split."""

    def __call__(self, *, input: bytes, output: bytes, answer: bytes) -> CheckResult:
        if output.split() == answer.split():
            return accepted()
        mismatch = find_token_mismatch(lines(output), lines(answer))
        # The token lists differ, so a mismatch exists; the fallback only guards against a broken invariant.
        return wrong(describe(mismatch) if mismatch is not None else "output differs from the expected output")
