"""The checker contract, shared by the built-ins and by a problem's own `checker.py`.

A checker is a callable object. It is built once per problem with its options as keyword-only arguments and
called once per test case, after the submission exited cleanly:

    checker = TokensChecker()
    result = checker(input=b"3\\n", output=b"6\\n", answer=b"6\\n")
    assert result == CheckResult(Verdict.AC, "")

It receives raw bytes (a submission may print anything) and must turn any output, however broken (invalid
UTF-8, NUL bytes, a 10 MB line, nothing at all), into WA or PE with a short message that helps the student:
"line 3: expected '92', got '91'". An exception escaping a checker is a judge error (JE), not the student's fault.

`CheckResult` is the one record of the judge that is a `typing.NamedTuple`, not a msgspec Struct: a problem's
checker.py imports this module inside its box (host.py), where only the standard library is importable. Not a
frozen dataclass: nothing else `judge run` imports needs `dataclasses` (1.9 ms of every start-up, measured).
"""

from __future__ import annotations

from typing import NamedTuple, Protocol, runtime_checkable

from judge.verdicts import Verdict


class CheckResult(NamedTuple):
    """What a checker decided about one output: AC, WA or PE, and a message for the student. `score` is the
    test's own score when the checker gave one (a testlib checker's partial points, a package validator's
    `score.txt`); None leaves it to the problem's groups (accept_score / reject_score)."""

    verdict: Verdict
    message: str = ""
    score: float | None = None


class Checker(Protocol):
    """Decides whether `output` answers `input` correctly; `answer` is the reference answer file's bytes."""

    def __call__(self, *, input: bytes, output: bytes, answer: bytes) -> CheckResult: ...


@runtime_checkable
class HoldsProcess(Protocol):
    """A checker that keeps a process between tests (checker.py's warm host), stopped with `close` when the
    submission's tests are done; the built-ins and checker programs hold nothing."""

    def close(self) -> None: ...


def accepted() -> CheckResult:
    return CheckResult(Verdict.AC, "")


def wrong(message: str) -> CheckResult:
    return CheckResult(Verdict.WA, message)


def presentation(message: str) -> CheckResult:
    return CheckResult(Verdict.PE, message)


def shorten(text: str | bytes, width: int = 40) -> str:
    """A token or line as a student should see it in a message: printable, quoted, and at most `width` chars."""
    if isinstance(text, bytes):
        text = text.decode("utf-8", errors="replace")
    shown = repr(text) if not text.isprintable() or not text else text
    return shown if len(shown) <= width else shown[: width - 1] + "…"
