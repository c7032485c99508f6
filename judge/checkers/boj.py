"""`boj`, the default checker: Baekjoon's rule.

Whitespace at the end of a line (so CRLF too) and blank lines at the end of the output are ignored; what remains
must equal the answer, treated the same way. Outputs with the right tokens but other spacing are PE, which tells
a student that only the layout is off; anything else is WA pointing at the first wrong token.
"""

from __future__ import annotations

from judge.checkers.base import CheckResult, accepted, presentation, wrong
from judge.checkers.text import column, common_prefix_length, describe, find_token_mismatch, lines


class BojChecker:
    """AC if equal after dropping trailing whitespace per line and trailing blank lines; PE if only spacing differs."""

    def __call__(self, *, input: bytes, output: bytes, answer: bytes) -> CheckResult:
        if output == answer:
            return accepted()
        output_lines, answer_lines = lines(output), lines(answer)
        if output_lines == answer_lines:
            return accepted()
        mismatch = find_token_mismatch(output_lines, answer_lines)
        if mismatch is not None:
            return wrong(describe(mismatch))
        return presentation(_spacing_message(output_lines, answer_lines))


def _spacing_message(output_lines: list[bytes], answer_lines: list[bytes]) -> str:
    """Where the layout first differs, for outputs whose tokens are all right."""
    index = common_prefix_length(output_lines, answer_lines)
    number = index + 1
    got = output_lines[index] if index < len(output_lines) else b""
    expected = answer_lines[index] if index < len(answer_lines) else b""
    if not got:
        return f"line {number}: unexpected blank line; spacing differs from the expected output"
    if not expected:
        return f"line {number}: expected a blank line; spacing differs from the expected output"
    at = column(got, common_prefix_length(got, expected))
    return f"line {number}, column {at}: spacing differs from the expected output"
