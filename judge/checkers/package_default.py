"""`package-default`: the problem package format's default output validator, with its flags.

Tokens are split on ASCII whitespace and compared one by one; a different number of tokens is WA. Without
`case_sensitive`, ASCII letters compare up to case. With a tolerance, an answer token that is a number accepts
any number within `absolute` or `relative`×|answer| (so `3.14e0` for `3.14`, and `200.0` for `200`); without
one, numbers are text. With `space_change_sensitive`, the whitespace between, before and after the tokens must
be the same bytes too. There is no PE: the format knows only right and wrong.

Problem packages set it with flags (packages/validator_flags.py); our problem.yaml can name it too:
`checker: {name: package-default, case_sensitive: true}`.
"""

from __future__ import annotations

import math
import re

from judge.checkers.base import CheckResult, accepted, wrong
from judge.checkers.float_tolerance import parse_number
from judge.checkers.text import column, common_prefix_length, describe, find_token_mismatch, lines

UNSET = -1.0
_WHITESPACE_RUNS = re.compile(rb"[ \t\n\r\x0b\x0c]+")


class PackageDefaultChecker:
    """AC if the tokens match (up to case unless case_sensitive; numbers within a tolerance when one is set)."""

    def __init__(
        self,
        *,
        case_sensitive: bool = False,
        space_change_sensitive: bool = False,
        absolute: float = UNSET,
        relative: float = UNSET,
    ) -> None:
        for name, value in (("absolute", absolute), ("relative", relative)):
            if not (math.isfinite(value) and (value >= 0 or value == UNSET)):
                raise ValueError(f"{name}: must be a non-negative number, got {value!r}")
        self.case_sensitive = case_sensitive
        self.space_change_sensitive = space_change_sensitive
        self.absolute = absolute
        self.relative = relative

    def __call__(self, *, input: bytes, output: bytes, answer: bytes) -> CheckResult:
        got_tokens, expected_tokens = output.split(), answer.split()
        if got_tokens != expected_tokens and (
            len(got_tokens) != len(expected_tokens) or not all(map(self._same, got_tokens, expected_tokens))
        ):
            mismatch = find_token_mismatch(lines(output), lines(answer), same=self._same)
            return wrong(describe(mismatch) if mismatch is not None else "output differs from the answer")
        if self.space_change_sensitive and _WHITESPACE_RUNS.findall(output) != _WHITESPACE_RUNS.findall(answer):
            return wrong(_spacing_message(output, answer))
        return accepted()

    @property
    def _tolerant(self) -> bool:
        return self.absolute != UNSET or self.relative != UNSET

    def _same(self, got: bytes, expected: bytes) -> bool:
        if got == expected:
            return True
        if self._tolerant:
            want = parse_number(expected)
            if want is not None:
                have = parse_number(got)
                if have is None:
                    return False
                error = abs(have - want)
                return (self.absolute != UNSET and error <= self.absolute) or (
                    self.relative != UNSET and error <= self.relative * abs(want)
                )
        return not self.case_sensitive and got.lower() == expected.lower()


def _spacing_message(output: bytes, answer: bytes) -> str:
    """Where the whitespace first differs (the tokens all match)."""
    at = common_prefix_length(output, answer)
    line = output.count(b"\n", 0, at) + 1
    line_start = output.rfind(b"\n", 0, at) + 1
    return f"line {line}, column {column(output, at, line_start)}: whitespace differs (space_change_sensitive)"
