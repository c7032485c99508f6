"""The next test's run, begun while a test's run goes on (`RunAhead`), so the launcher finds it waiting.

A launcher (judge/runner/launcher/) starts a submission's runs one at a time, in the order they were sent. Sent
only once the judge had checked a test's output, the next test's run found the launcher asleep, waiting for it:
one wake-up of the launcher per test more (each a wait for a CPU on a busy machine), and the judge's work between
two tests (checking, the next run's files and group) added to every test's wall time. Begun ahead, its request
waits in the launcher's socket (which the launcher does not read while a run goes on, so it wakes no one) and
starts as soon as the test before has ended and the box is reset; the judge checks that test's output meanwhile.

It never runs beside another of the submission's runs (the launcher starts it only after the one before has
ended, `Starter.queues`), so nothing it measures changes; it has its own output files (two sets, used in turn)
and control group (containment/cgroup.py keeps two). Begun ahead only where the next test is certain to run
after this one: not for an interactive problem (its runs are forks of the judge), a multi-pass one (the next
pass's input comes from the validator) or a scored one (a failed group skips its later tests). When it is not
wanted after all (BOJ's stop at the first failure; a test run again near its limit, which must go first) it is
dropped: the launcher kills it, or never starts it.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager

import msgspec.structs
from msgspec import Struct, field

from judge.judging import measuring
from judge.judging.failures import JUDGE_FAILURES
from judge.judging.setup import JudgingSetup
from judge.problems.model import TestCase
from judge.runner import execute

SECOND_OUTPUTS = ".ahead"  # the suffix of the second set of output files


class RunAhead(Struct):
    """The runs of a submission's tests, the next one begun while one goes on (see above)."""

    setup: JudgingSetup
    tests: Sequence[TestCase]
    pending: tuple[TestCase, execute.PendingRun] | None = None
    second_outputs: bool = False  # which set of output files the next run begun gets
    _places: dict[str, int] = field(default_factory=dict)  # each test's place in `tests`, by its name

    def __post_init__(self) -> None:
        self._places = {test.name: number for number, test in enumerate(self.tests)}

    def begin(self, test: TestCase) -> execute.PendingRun:
        """The run of `test`: the one begun ahead for it, else begun now; and the next test's, begun behind it."""
        if self.pending is not None and self.pending[0] is test:
            current = self.pending[1]
            self.pending = None
        else:
            self.drop()
            current = self._begin(test)
        place = self._places.get(test.name)
        if place is not None and place + 1 < len(self.tests) and current.starter.queues(current.contained.contained):
            self._begin_ahead(self.tests[place + 1])
        return current

    def drop(self) -> None:
        """Stop the run begun ahead, if any: its test will not run next (see above)."""
        if self.pending is not None:
            _, run = self.pending
            self.pending = None
            run.cancel()

    def _begin_ahead(self, test: TestCase) -> None:
        """Begin `test`'s run behind the current one. A failure to is not this test's: the next test meets it
        again when it begins its own run, inside its own case (case.py), and gets its JE there."""
        try:
            self.pending = (test, self._begin(test))
        except JUDGE_FAILURES:
            self.pending = None

    def _begin(self, test: TestCase) -> execute.PendingRun:
        setup = self.setup
        spec = setup.run_spec(test.input_path)
        if self.second_outputs:
            spec = msgspec.structs.replace(
                spec,
                stdout_path=spec.stdout_path.with_name(spec.stdout_path.name + SECOND_OUTPUTS),
                stderr_path=spec.stderr_path.with_name(spec.stderr_path.name + SECOND_OUTPUTS),
            )
        limits = measuring.stopping_limits(setup.limits, ())
        run = execute.begin(spec, limits, setup.containment, setup.starter, setup.outputs, setup.give_way_at)
        self.second_outputs = not self.second_outputs
        return run


def runs_ahead(setup: JudgingSetup) -> bool:
    """Whether the next test is certain to run after each test of `setup`'s problem (see above)."""
    problem = setup.problem
    return not problem.interactive and problem.passes == 1 and problem.scoring is None


@contextmanager
def run_ahead(setup: JudgingSetup, tests: Sequence[TestCase]) -> Iterator[RunAhead | None]:
    """A `RunAhead` over `tests` where their problem allows it (`runs_ahead`), else None; a run still begun ahead
    when the block ends (an error, an interruption) is dropped."""
    if not runs_ahead(setup):
        yield None
        return
    ahead = RunAhead(setup, tests)
    try:
        yield ahead
    finally:
        ahead.drop()
