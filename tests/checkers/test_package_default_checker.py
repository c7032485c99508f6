"""The package format's default output validator (`package-default`), per the specification's rules."""

from __future__ import annotations

import pytest

from judge.checkers.package_default import PackageDefaultChecker
from judge.verdicts import Verdict

AC, WA = Verdict.AC, Verdict.WA


@pytest.mark.parametrize(("options", "output", "answer", "verdict"), [
    ({}, b"Yes\n", b"yes\n", AC),                                   # case-insensitive by default
    ({"case_sensitive": True}, b"Yes\n", b"yes\n", WA),
    ({}, b"\xc3\x89\n", b"\xc3\xa9\n", WA),                         # only ASCII letters fold
    ({}, b"  1   2\n\n3  ", b"1 2 3\n", AC),                        # whitespace only separates
    ({}, b"1 2 3 4\n", b"1 2 3\n", WA),                             # token counts must agree
    ({}, b"1 2\n", b"1 2 3\n", WA),
    ({"space_change_sensitive": True}, b"1  2\n", b"1 2\n", WA),
    ({"space_change_sensitive": True}, b"1 2", b"1 2\n", WA),
    ({"space_change_sensitive": True}, b"1 2\n", b"1 2\n", AC),
    ({"space_change_sensitive": True}, b"A b\n", b"a B\n", AC),     # still case-insensitive
    ({}, b"0.1000001\n", b"0.1\n", WA),                             # no tolerance: numbers are text
    ({"absolute": 1e-6}, b"0.1000001\n", b"0.1\n", AC),
    ({"absolute": 1e-6}, b"3.14e0\n", b"3.14\n", AC),               # any float formatting
    ({"absolute": 1e-6}, b"200.0\n", b"200\n", AC),                 # integers are numbers too
    ({"absolute": 1e-6}, b"abc\n", b"0.5\n", WA),
    ({"absolute": 1e-6}, b"nan\n", b"0.5\n", WA),
    ({"relative": 1e-3}, b"1000.9\n", b"1000\n", AC),
    ({"relative": 1e-3}, b"1001.1\n", b"1000\n", WA),
    ({"relative": 1e-3, "absolute": 2.0}, b"1001.9\n", b"1000\n", AC),  # within either
    ({"absolute": 1e-6}, b"YES 0.5\n", b"yes 0.5000001\n", AC),     # words beside numbers fold
])
def test_the_default_validator(options: dict[str, object], output: bytes, answer: bytes, verdict: Verdict) -> None:
    result = PackageDefaultChecker(**options)(input=b"", output=output, answer=answer)  # type: ignore[arg-type]
    assert result.verdict is verdict, result.message
    assert (result.message == "") is (verdict is AC)


def test_a_wrong_token_says_where() -> None:
    result = PackageDefaultChecker(case_sensitive=True)(input=b"", output=b"a\nb\nc\n", answer=b"a\nb\nC\n")
    assert result.message == "line 3: expected 'C', got 'c'"


def test_a_spacing_difference_says_where() -> None:
    result = PackageDefaultChecker(space_change_sensitive=True)(input=b"", output=b"1 2\n3  4\n", answer=b"1 2\n3 4\n")
    assert result.message == "line 2, column 3: whitespace differs (space_change_sensitive)"


def test_a_negative_tolerance_is_refused() -> None:
    with pytest.raises(ValueError, match="absolute: must be a non-negative number"):
        PackageDefaultChecker(absolute=-2.0)
