"""Validator for 1008 (A/B): one line `A B`, integers with 0 < A, B < 10, then a newline.

Run by `judge verify` as `python3 validator.py < test.in`: exit 0 when the input is legal (stdout is shown as a
note), exit 1 with the reason on stderr when it is not.
"""

import re
import sys

LINE = re.compile(rb"([0-9]+) ([0-9]+)\n")


def main() -> int:
    match = LINE.fullmatch(sys.stdin.buffer.read())
    if match is None:
        print("expected one line: two integers separated by one space", file=sys.stderr)
        return 1
    a, b = (int(group) for group in match.groups())
    if not (0 < a < 10 and 0 < b < 10):
        print(f"A and B must satisfy 0 < A, B < 10, got {a} {b}", file=sys.stderr)
        return 1
    print(f"a={a} b={b}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
