"""Scored problems: a tree of test groups, and the default grader that turns the tests' verdicts into a verdict
and a score per group, up to the whole problem.

A test scores `accept_score` when AC and `reject_score` otherwise, unless its checker gave it a score of its own
(a testlib checker's partial points, a validator's `score.txt`: CaseResult.score), which counts instead (not in a
group with `checker_scores` off: 2023-07's samples, which score nothing); a group aggregates its items' scores
with `sum` (default), `min`, `max` or `avg`, and their verdicts by `worst_error` (default: the worst verdict of
any item), `first_error` (the first item's that is not AC) or `always_accept`; `accept_if_any_accepted` makes it
AC when any item is, and `ignore_sample` (at the top) grades only the last item, the secret data. A group with
`on_reject: break` stops at its first item that is not AC: the rest are not judged and do not count. This is the
problem package format's default grader; 2023-07's `scoring: {score, aggregation}` maps onto it
(packages/testdata.py).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping

from msgspec import Struct

from judge.verdicts import Verdict

MAX_SCORE = 1e6
"""The largest score a package or a checker may give one test or group (testlib's own bound on partial points).
With every score finite and in [0, MAX_SCORE], a problem's total is at most MAX_SCORE times its number of tests,
so every sum, maximum and report stays a finite number (JSON has no NaN or infinity)."""

AGGREGATIONS: dict[str, Callable[[list[float]], float]] = {
    "sum": sum,
    "min": lambda scores: min(scores, default=0.0),
    "max": lambda scores: max(scores, default=0.0),
    "avg": lambda scores: sum(scores) / len(scores) if scores else 0.0,
}


def checked_score(value: float) -> float:
    """`value` as a score: a finite number from 0 to MAX_SCORE, else ValueError saying so."""
    try:
        number = float(value)
    except OverflowError:
        number = math.inf
    if not (math.isfinite(number) and 0 <= number <= MAX_SCORE):
        raise ValueError(f"must be a number from 0 to {MAX_SCORE:.0f}, got {value!r}")
    return number


VERDICT_MODES = ("worst_error", "first_error", "always_accept")
FLAGS = ("ignore_sample", "accept_if_any_accepted")
WORST_FIRST = (Verdict.JE, Verdict.RE, Verdict.MLE, Verdict.TLE, Verdict.OLE, Verdict.WA, Verdict.PE, Verdict.CE)
"""The order `worst_error` picks in (the format's JE, RTE, MLE, TLE, OLE, WA; our PE counts as WA)."""


class ScoreGroup(Struct, frozen=True):
    """A test group: its items (test names and subgroups, in judging order) and how they are graded."""

    name: str
    items: tuple[str | ScoreGroup, ...]
    accept_score: float = 1.0
    reject_score: float = 0.0
    aggregation: str = "sum"
    verdict_mode: str = "worst_error"
    accept_if_any: bool = False
    ignore_sample: bool = False
    break_on_reject: bool = False
    checker_scores: bool = True
    full_score: float | None = None
    """The most a submission can score when the package says it (a legacy top `range: 0 100`), rather than what
    passing everything adds up to; problemtools measures "full score" against it."""

    def tests(self) -> list[str]:
        """Every test name below this group, in order."""
        return [name for item in self.items for name in ([item] if isinstance(item, str) else item.tests())]

    def max_score(self) -> float:
        """The full score: the package's own, else the score of a submission that passes everything."""
        if self.full_score is not None:
            return self.full_score
        return self.grade(dict.fromkeys(self.tests(), Verdict.AC))[1]

    def grade(
        self, verdicts: Mapping[str, Verdict], scores: Mapping[str, float] | None = None
    ) -> tuple[Verdict, float]:
        """This group's verdict and score from the tests' verdicts and the scores their checkers gave (`scores`,
        tests without one absent); a test missing from `verdicts` was not judged (a group broke before it) and
        counts for nothing."""
        scores = scores or {}
        results: list[tuple[Verdict, float]] = []
        for item in self.items:
            if isinstance(item, str):
                if item not in verdicts:
                    continue
                verdict = verdicts[item]
                default = self.accept_score if verdict is Verdict.AC else self.reject_score
                results.append((verdict, scores.get(item, default) if self.checker_scores else default))
            else:
                if not any(name in verdicts for name in item.tests()):
                    continue
                results.append(item.grade(verdicts, scores))
        if self.ignore_sample and results:
            results = results[-1:]
        return self._verdict(results), AGGREGATIONS[self.aggregation]([score for _, score in results])

    def _verdict(self, results: list[tuple[Verdict, float]]) -> Verdict:
        verdicts = [verdict for verdict, _ in results]
        if self.verdict_mode == "always_accept" or all(verdict is Verdict.AC for verdict in verdicts):
            return Verdict.AC
        if self.accept_if_any and Verdict.AC in verdicts:
            return Verdict.AC
        if self.verdict_mode == "first_error":
            return next(verdict for verdict in verdicts if verdict is not Verdict.AC)
        return min((verdict for verdict in verdicts if verdict is not Verdict.AC), key=WORST_FIRST.index)

    def skipped_by_break(self, verdicts: Mapping[str, Verdict]) -> set[str]:
        """The tests not to judge, given the verdicts so far: those after a failure in a group that breaks."""
        skipped: set[str] = set()
        failed = False
        for item in self.items:
            names = [item] if isinstance(item, str) else item.tests()
            if failed:
                skipped.update(names)
                continue
            if not isinstance(item, str):
                skipped |= item.skipped_by_break(verdicts)
            if self.break_on_reject and any(verdicts.get(name, Verdict.AC) is not Verdict.AC for name in names):
                failed = True
        return skipped
