"""Where `judge stress` looks first: the problem's own tests. When `judge run` fails a submission on a bundled
test, that test is a failing input already; stress finds the smallest such test (by the strategy's `magnitude`)
and makes it smaller with the strategy's `simplify`, keeping the input legal and the verdict the same.

Random inputs miss bugs that need a particular shape (several blanks in the right rows of a Sudoku), which the
tests a teacher wrote by hand or searched for were made to have; starting from them means stress never answers
"nothing found" for a submission `judge run` rejects, and never reports an input larger than that test.
Shrinking is greedy: the first candidate that keeps the verdict replaces the input, until none does (or the
budget is spent, which keeps the smallest input so far).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import TypeVar

from msgspec import Struct

from judge.errors import SpecError
from judge.problems.files import read_problem_file
from judge.problems.model import Problem, TestCase
from judge.stress.budget import Clock, OnTrial
from judge.stress.inputs import InputSource, Simplify
from judge.stress.trials import Bench, Trial
from judge.verdicts import Verdict

Result = TypeVar("Result")


class FromTest(Struct, frozen=True):
    """A failing input found from a bundled test: the test, and the input after simplifying it (if it could be)."""

    test: TestCase
    test_size: str
    trial: Trial
    simplified: bool


def failing_test_shrunk(
    problem: Problem, source: InputSource, bench: Bench, clock: Clock, on_trial: OnTrial
) -> FromTest | None:
    """The smallest failing bundled test, simplified; None if every test passes (or the budget ran out first)."""
    found = _smallest_failing_test(problem, source, bench, clock, on_trial)
    if found is None:
        return None
    test, failing = found
    size = _teacher_call(source, "size", source.size, _text(failing.input))
    shrunk = failing if source.simplify is None else _shrink(failing, source, source.simplify, bench, clock, on_trial)
    return FromTest(test, size, shrunk, simplified=shrunk is not failing)


def _smallest_failing_test(
    problem: Problem, source: InputSource, bench: Bench, clock: Clock, on_trial: OnTrial
) -> tuple[TestCase, Trial] | None:
    """Judge the tests smallest first (ties in the problem's order) up to the first that is not AC."""

    def magnitude(test: TestCase) -> int:
        text = _text(read_problem_file(test.input_path, problem.root, None))
        return _teacher_call(source, "magnitude", source.magnitude, text)

    for test in sorted(problem.tests, key=magnitude):
        if clock.spent():
            return None
        trial = bench.judge_test(test)
        on_trial(len(bench.seen), clock.elapsed(), f"test {test.name}", trial.verdict)
        if trial.verdict is not Verdict.AC:
            return test, trial
    return None


def _shrink(
    failing: Trial, source: InputSource, simplify: Simplify, bench: Bench, clock: Clock, on_trial: OnTrial
) -> Trial:
    """Replace the input by the first simplification of it that is legal, no larger and fails the same way, until
    none does. Each candidate is tried once, so a `simplify` that goes round in circles still ends."""
    current, tried = failing, {failing.input}
    while not clock.spent():
        limit = _teacher_call(source, "magnitude", source.magnitude, _text(current.input))
        for candidate in _candidates(source, simplify, current):
            data = candidate.encode()
            if data in tried or _teacher_call(source, "magnitude", source.magnitude, candidate) > limit:
                continue
            if clock.spent():
                return current
            tried.add(data)
            trial = bench.judge_if_legal(data)
            if trial is None:
                continue
            on_trial(
                len(bench.seen), clock.elapsed(), _teacher_call(source, "size", source.size, candidate), trial.verdict
            )
            if trial.verdict is failing.verdict:
                current = trial
                break
        else:
            return current
    return current


def _candidates(source: InputSource, simplify: Simplify, current: Trial) -> Iterator[str]:
    """What `simplify` offers for the current input and its correct answer, one at a time (it may be lazy)."""
    try:
        for candidate in simplify(_text(current.input), _text(current.expected)):
            if not isinstance(candidate, str):
                raise TypeError(f"it gave {type(candidate).__name__}, not an input text")
            yield candidate
    except Exception as error:  # noqa: BLE001 -- the teacher's code: any failure is one line naming it
        raise _failed(source, "simplify", error) from None


def _teacher_call(source: InputSource, name: str, function: Callable[..., Result], *args: object) -> Result:
    """Call a function of the teacher's strategy.py: whatever it raises is one line naming the file."""
    try:
        return function(*args)
    except Exception as error:  # noqa: BLE001 -- the teacher's code: any failure is one line naming it
        raise _failed(source, name, error) from None


def _failed(source: InputSource, name: str, error: Exception) -> SpecError:
    return SpecError(f"{source.path}: {name}() failed: {type(error).__name__}: {' '.join(str(error).split())[:300]}")


def _text(data: bytes) -> str:
    return data.decode("utf-8", errors="replace")
