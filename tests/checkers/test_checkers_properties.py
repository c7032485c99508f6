"""Property tests: no output, however broken, makes a checker raise, and the rules hold for any answer."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from judge.checkers import BUILTIN_CHECKERS, CheckResult
from judge.checkers.boj import BojChecker
from judge.checkers.float_tolerance import FloatChecker
from judge.checkers.text import common_prefix_length, lines
from judge.checkers.tokens import TokensChecker
from judge.verdicts import Verdict

CHECKER_VERDICTS = {Verdict.AC, Verdict.WA, Verdict.PE}
MODEST = settings(max_examples=200, deadline=None)
FEW = settings(max_examples=15, deadline=None)

WHITESPACE = [b" ", b"\t", b"\n", b"\r\n", b"\r", b"\x0b", b"\x0c"]
NASTY_PIECES = [
    *WHITESPACE,
    b"\x00", b"\xff", b"\xc3", b"\xed\xa0\x80",  # NUL, invalid UTF-8, a lone surrogate
    b"0", b"-0", b"-0.0", b"+0", b"1.5", b"1e999", b"nan", b"inf", b"-", b".", b"e",
    "٣".encode(), "３".encode(), "߃".encode(), "가".encode(), "\u00a0".encode(), "\u2028".encode(),
]

nasty_bytes = st.lists(
    st.one_of(
        st.sampled_from(NASTY_PIECES),
        st.binary(max_size=12),
        st.integers(-(10**30), 10**30).map(lambda n: str(n).encode()),
        st.floats(allow_nan=True, allow_infinity=True).map(lambda x: repr(x).encode()),
    ),
    max_size=30,
).map(b"".join)

answers = st.lists(
    st.one_of(st.sampled_from(NASTY_PIECES), st.integers(-1000, 1000).map(lambda n: str(n).encode())), max_size=20
).map(b"".join)

huge = st.one_of(
    st.integers(10_000, 2_000_000).map(lambda n: b"9" * n),
    st.integers(10_000, 300_000).map(lambda n: b"1 " * n),
    st.integers(10_000, 300_000).map(lambda n: b"-0\n" * n),
    st.integers(10_000, 1_000_000).map(lambda n: b"\x00" * n),
    st.integers(1_000, 100_000).map(lambda n: "٣".encode() * n),
)


def assert_well_formed(result: CheckResult) -> None:
    assert isinstance(result, CheckResult)
    assert result.verdict in CHECKER_VERDICTS
    assert (result.message != "") is (result.verdict is not Verdict.AC)
    assert result.message.isprintable()


@MODEST
@given(output=nasty_bytes, answer=answers)
def test_nasty_output_never_makes_a_builtin_raise(output: bytes, answer: bytes) -> None:
    for make in BUILTIN_CHECKERS.values():
        assert_well_formed(make()(input=b"", output=output, answer=answer))


@MODEST
@given(output=st.binary(max_size=200), answer=st.binary(max_size=200))
def test_random_bytes_on_both_sides(output: bytes, answer: bytes) -> None:
    for make in BUILTIN_CHECKERS.values():
        assert_well_formed(make()(input=b"", output=output, answer=answer))


@FEW
@given(output=huge, answer=answers)
def test_huge_outputs_are_judged_with_a_short_message(output: bytes, answer: bytes) -> None:
    for make in BUILTIN_CHECKERS.values():
        result = make()(input=b"", output=output, answer=answer)
        assert_well_formed(result)
        assert len(result.message) < 200


@MODEST
@given(answer=nasty_bytes)
def test_every_builtin_accepts_the_answer_itself(answer: bytes) -> None:
    for make in BUILTIN_CHECKERS.values():
        assert make()(input=b"", output=answer, answer=answer).verdict is Verdict.AC


@MODEST
@given(
    answer=nasty_bytes,
    line_ends=st.lists(st.sampled_from([b"", b" ", b"  ", b"\t", b"\r", b" \r"]), max_size=40),
    tail=st.lists(st.sampled_from([b"\n", b"\r\n", b" \n", b"\t"]), max_size=5).map(b"".join),
)
def test_boj_ignores_trailing_whitespace_and_blank_lines(answer: bytes, line_ends: list[bytes], tail: bytes) -> None:
    parts = answer.split(b"\n")
    padded = b"\n".join(part + (line_ends[i] if i < len(line_ends) else b"") for i, part in enumerate(parts))
    assert BojChecker()(input=b"", output=padded + tail, answer=answer).verdict is Verdict.AC


@MODEST
@given(
    answer=nasty_bytes,
    separators=st.lists(st.lists(st.sampled_from(WHITESPACE), min_size=1, max_size=3).map(b"".join), min_size=1),
)
def test_tokens_accepts_any_respacing(answer: bytes, separators: list[bytes]) -> None:
    tokens = answer.split()
    output = separators[0]
    for i, token in enumerate(tokens):
        output += token + separators[(i + 1) % len(separators)]
    assert TokensChecker()(input=b"", output=output, answer=answer).verdict is Verdict.AC


@MODEST
@given(values=st.lists(st.floats(allow_nan=False, allow_infinity=False, width=64), min_size=1, max_size=20))
def test_float_accepts_the_same_numbers_written_differently(values: list[float]) -> None:
    answer = b" ".join(b"%.17g" % value for value in values)
    output = b"\n".join(repr(value).encode() for value in values)
    assert FloatChecker()(input=b"", output=output, answer=answer).verdict is Verdict.AC


@MODEST
@given(data=nasty_bytes)
def test_lines_matches_the_plain_definition(data: bytes) -> None:
    expected = [line.rstrip() for line in data.split(b"\n")]
    while expected and not expected[-1]:
        expected.pop()
    assert lines(data) == expected


@MODEST
@given(a=st.binary(max_size=3000), b=st.binary(max_size=3000), shared=st.binary(max_size=5000))
def test_common_prefix_length_matches_a_plain_loop(a: bytes, b: bytes, shared: bytes) -> None:
    a, b = shared + a, shared + b
    expected = 0
    while expected < min(len(a), len(b)) and a[expected] == b[expected]:
        expected += 1
    assert common_prefix_length(a, b) == expected
    assert common_prefix_length(list(a), list(b)) == expected
