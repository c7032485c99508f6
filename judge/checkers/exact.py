"""`exact`: the output must equal the answer byte for byte, trailing newline and CRLF included.

For problems where the layout is the task (ASCII art, exact formatting); the message points at the first
differing line and column and shows both sides with whitespace made visible.
"""

from __future__ import annotations

from judge.checkers.base import CheckResult, accepted, wrong
from judge.checkers.text import column, common_prefix_length, show_raw


class ExactChecker:
    """AC only if the output's bytes are the answer's bytes."""

    def __call__(self, *, input: bytes, output: bytes, answer: bytes) -> CheckResult:
        if output == answer:
            return accepted()
        offset = common_prefix_length(output, answer)
        line_start = output.rfind(b"\n", 0, offset) + 1
        line_number = output.count(b"\n", 0, offset) + 1
        at = column(output if offset < len(output) else answer, offset, line_start)
        where = f"line {line_number}, column {at}"
        # Both sides agree before `offset`, so a little shared context makes the difference easy to spot.
        start = max(line_start, offset - 10)
        while start < offset and output[start] & 0xC0 == 0x80:  # begin the context on a whole character
            start += 1
        got, expected = _rest_of_line(output, start), _rest_of_line(answer, start)
        if not output:
            return wrong(f"no output; expected {show_raw(expected)}")
        if offset == len(output):
            return wrong(f"{where}: output ended early; expected {show_raw(expected)}")
        if offset == len(answer):
            return wrong(f"{where}: extra output after the answer: {show_raw(output[offset : offset + 200])}")
        return wrong(f"{where}: expected {show_raw(expected)}, got {show_raw(got)}")


def _rest_of_line(data: bytes, start: int) -> bytes:
    """From `start` to the end of its line, keeping the newline so that a missing or extra one shows."""
    end = data.find(b"\n", start, start + 200)
    return data[start : end + 1] if end >= 0 else data[start : start + 200]
