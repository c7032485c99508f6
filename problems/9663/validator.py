"""Validator for problem 9663 (N-Queen): the input is one integer N with 1 <= N < 15.

Run as `python3 validator.py < test.in`. Exit 0 and print `n=<N>` on stdout when the input is legal; exit 1
with one line on stderr when it is not. Strict about the form, since tests are ours to get right: decimal
digits without sign or leading zero, then one newline, nothing else. Importable: `validate(data)` returns N
or raises `InvalidInput`.
"""

from __future__ import annotations

import re
import sys

LOWEST = 1
HIGHEST = 14
LINE = re.compile(rb"(0|[1-9][0-9]{0,5})\n")


class InvalidInput(ValueError):
    """The input breaks the format or the bounds; the message says how."""


def validate(data: bytes) -> int:
    """N for a legal input; InvalidInput otherwise."""
    match = LINE.fullmatch(data)
    if match is None:
        raise InvalidInput(f"expected one integer and a newline, got {data[:40]!r}")
    n = int(match.group(1))
    if not LOWEST <= n <= HIGHEST:
        raise InvalidInput(f"N must satisfy {LOWEST} <= N < {HIGHEST + 1}, got {n}")
    return n


def main() -> int:
    try:
        n = validate(sys.stdin.buffer.read())
    except InvalidInput as error:
        print(error, file=sys.stderr)
        return 1
    print(f"n={n}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
