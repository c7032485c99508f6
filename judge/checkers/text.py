"""Splitting outputs into lines and tokens, and finding where two token streams first part, for the checkers.

Everything works on bytes: a submission may print invalid UTF-8 or NUL bytes, and bytes.split() treats exactly
ASCII whitespace as separators, as BOJ does. Every function here is linear in the size of its input and does its
heavy lifting in C (bytes.split, slice comparison), so a 10 MB line or a million tokens checks in milliseconds.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TypeVar

from msgspec import Struct

from judge.checkers.base import shorten

T = TypeVar("T")

# Prefixes are compared a block at a time so that the Python-level loop runs len/BLOCK times, not len times.
_BLOCK = 1024

# Maps every whitespace byte but the newline to a space, so one search for b" \n" finds any trailing whitespace.
_BLANKS_TO_SPACE = bytes.maketrans(b"\t\r\x0b\x0c", b"    ")


def lines(data: bytes) -> list[bytes]:
    """The lines of `data` with whitespace at line ends (including the \\r of CRLF) and trailing blank lines removed."""
    if b"\r" in data:
        data = data.replace(b"\r\n", b"\n")
    if b" \n" not in data.translate(_BLANKS_TO_SPACE):
        # Only the last line can end in whitespace, so one rstrip of the whole does the per-line work in C.
        data = data.rstrip()
        return data.split(b"\n") if data else []
    stripped = list(map(bytes.rstrip, data.split(b"\n")))
    while stripped and not stripped[-1]:
        stripped.pop()
    return stripped


def common_prefix_length(a: Sequence[T], b: Sequence[T]) -> int:
    """How many leading items (bytes or list elements) `a` and `b` share."""
    limit = min(len(a), len(b))
    start = 0
    while start < limit:
        end = min(start + _BLOCK, limit)
        if a[start:end] != b[start:end]:
            break
        start = end
    else:
        return limit
    while a[start] == b[start]:
        start += 1
    return start


def show(token: bytes, width: int = 40) -> str:
    """`token` as a message should show it, quoted (`got 'N?'` must not read as a question); cut before decoding so
    a 10 MB token costs nothing."""
    text = token[: 4 * width + 4].decode("utf-8", errors="replace")
    return f"'{shorten(text, width)}'" if text and text.isprintable() else shorten(text, width)  # else repr'd


def show_raw(text: bytes, width: int = 40) -> str:
    """`text` quoted with its whitespace made visible, for messages about spacing or exact bytes."""
    return shorten(repr(text[: 4 * width + 4].decode("utf-8", errors="replace")), width)


def column(data: bytes, offset: int, line_start: int = 0) -> int:
    """The 1-based character column of byte `offset` in the line starting at `line_start`.

    An offset inside a UTF-8 character (two answers sharing a lead byte) counts as that character's start, and
    a broken UTF-8 byte counts as one character, so Korean text gets the column a student sees in an editor.
    """
    for _ in range(3):  # a UTF-8 character has at most three continuation bytes
        if line_start < offset < len(data) and data[offset] & 0xC0 == 0x80:
            offset -= 1
    return len(data[line_start:offset].decode("utf-8", errors="replace")) + 1


class TokenMismatch(Struct, frozen=True):
    """Where the output's tokens first stop matching the answer's; `got` or `expected` is None past an end."""

    got: bytes | None
    expected: bytes | None
    got_line: int
    expected_line: int
    output_is_blank: bool
    got_line_count: int
    expected_line_count: int


def find_token_mismatch(
    output_lines: list[bytes],
    answer_lines: list[bytes],
    same: Callable[[bytes, bytes], bool] | None = None,
) -> TokenMismatch | None:
    """The first token where output and answer differ (by `same`, default byte equality), or None if none does.

    `same` must accept equal bytes; the identical leading lines are then skipped without looking at their tokens.
    """
    first_line = common_prefix_length(output_lines, answer_lines)
    got_tokens = b" ".join(output_lines[first_line:]).split()
    expected_tokens = b" ".join(answer_lines[first_line:]).split()
    index = common_prefix_length(got_tokens, expected_tokens)
    if same is not None:
        while (
            index < len(got_tokens) and index < len(expected_tokens) and same(got_tokens[index], expected_tokens[index])
        ):
            index += 1
    if index == len(got_tokens) and index == len(expected_tokens):
        return None
    return TokenMismatch(
        got=got_tokens[index] if index < len(got_tokens) else None,
        expected=expected_tokens[index] if index < len(expected_tokens) else None,
        got_line=_line_of_token(output_lines, first_line, index),
        expected_line=_line_of_token(answer_lines, first_line, index),
        # Lines are right-stripped, so a non-empty line holds a token.
        output_is_blank=not any(output_lines),
        got_line_count=len(output_lines),
        expected_line_count=len(answer_lines),
    )


def _line_of_token(all_lines: list[bytes], first_line: int, index: int) -> int:
    """The 1-based line holding token `index` counted from line `first_line`; past the end, the last line."""
    seen, number = 0, first_line
    # Whole blocks of lines are counted in C, so a million one-token lines cost a thousand Python steps.
    while number < len(all_lines):
        in_block = len(b" ".join(all_lines[number : number + _BLOCK]).split())
        if seen + in_block > index:
            break
        seen += in_block
        number += _BLOCK
    else:
        return max(len(all_lines), 1)
    for line in all_lines[number : number + _BLOCK]:
        seen += len(line.split())
        number += 1
        if seen > index:
            break
    return number


def describe(mismatch: TokenMismatch, why: Callable[[bytes, bytes], str] | None = None) -> str:
    """The student's message for a token mismatch; `why(got, expected)` may add a reason to a wrong token."""
    got, expected = mismatch.got, mismatch.expected
    if got is None:
        upcoming = show(expected or b"")
        if mismatch.output_is_blank:
            return f"no output; expected {_lines(mismatch.expected_line_count)} starting with {upcoming}"
        if mismatch.got_line_count < mismatch.expected_line_count:
            return f"output ended early: expected {_lines(mismatch.expected_line_count)}, got {mismatch.got_line_count}"
        return f"line {mismatch.got_line}: output ended early; expected {upcoming} next"
    if expected is None:
        return f"extra output after the answer: line {mismatch.got_line}: {show(got)}"
    reason = why(got, expected) if why is not None else ""
    # When the layouts drift apart, the answer's line number tells the student where the token belongs.
    elsewhere = f" (line {mismatch.expected_line} of the answer)" if mismatch.expected_line != mismatch.got_line else ""
    return f"line {mismatch.got_line}: expected {show(expected)}{elsewhere}, got {show(got)}{reason}"


def _lines(count: int) -> str:
    return f"{count} line" if count == 1 else f"{count} lines"
