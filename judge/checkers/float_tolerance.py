"""`float`: tokens compared as numbers within an absolute or relative tolerance (BOJ's "절대/상대 오차 10^-9").

Only plain decimal numbers count as numbers (`12`, `-0.5`, `1e-3`, `.5`); `nan`, `inf`, `1_000`, hex and
non-ASCII digits do not, so a submission cannot pass by printing `nan` unless the answer literally says `nan`.
Answer tokens that are not numbers (words, `YES`) must match exactly. Layout is ignored, as with `tokens`.
"""

from __future__ import annotations

import math

from judge.checkers.base import CheckResult, accepted, wrong
from judge.checkers.text import describe, find_token_mismatch, lines

# float() alone would also take "nan", "inf", "1_000" and surrounding whitespace; limiting the bytes to these
# leaves exactly plain decimal numbers, and costs far less per token than a regular expression.
_NUMBER_BYTES = b"0123456789+-.eE"


def looks_numeric(token: bytes) -> bool:
    """Whether `token` is made only of the bytes a plain decimal number uses (ASCII digits, sign, dot, exponent)."""
    return not token.translate(None, _NUMBER_BYTES)


def parse_number(token: bytes) -> float | None:
    """The finite value of a plain decimal number, or None for anything else (words, nan, inf, overflow)."""
    if not looks_numeric(token):
        return None
    try:
        value = float(token)
    except ValueError:
        return None
    return value if math.isfinite(value) else None


class FloatChecker:
    """AC if every number is within `absolute` or `relative`×|expected| of the answer's and other tokens match."""

    def __init__(self, *, absolute: float = 1e-9, relative: float = 1e-9) -> None:
        for name, value in (("absolute", absolute), ("relative", relative)):
            if not (math.isfinite(value) and value >= 0):
                raise ValueError(f"{name}: must be a non-negative number, got {value!r}")
        self.absolute = absolute
        self.relative = relative

    def __call__(self, *, input: bytes, output: bytes, answer: bytes) -> CheckResult:
        if output.split() == answer.split():
            return accepted()
        mismatch = find_token_mismatch(lines(output), lines(answer), same=self._same)
        if mismatch is None:
            return accepted()
        return wrong(describe(mismatch, why=self._why))

    def _same(self, got: bytes, expected: bytes) -> bool:
        if got == expected:
            return True
        want = parse_number(expected)
        if want is None:
            return False
        have = parse_number(got)
        if have is None:
            return False
        error = abs(have - want)
        return error <= self.absolute or error <= self.relative * abs(want)

    def _why(self, got: bytes, expected: bytes) -> str:
        """Why `got` was refused, so that a student can tell rounding from a wrong result."""
        want = parse_number(expected)
        if want is None:
            return ""
        have = parse_number(got)
        if have is not None:
            return f" (off by {abs(have - want):.3g}; allowed {self.absolute:g} absolute or {self.relative:g} relative)"
        return " (not a finite number)" if looks_numeric(got) and _overflows(got) else " (not a number)"


def _overflows(token: bytes) -> bool:
    try:
        return not math.isfinite(float(token))
    except ValueError:
        return False
