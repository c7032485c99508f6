"""One line per pair that `judge grade --stress` searched, for the terminal while it runs
(`lee/9663: WA at N=2, from test 02`), so a teacher sees what the search found without opening report.html."""

from __future__ import annotations

from judge.batch.tasks import Pair
from judge.inert import for_terminal
from judge.stress import StressReport


def summary_line(pair: Pair, found: StressReport | str) -> str:
    """What the search found for `pair`, or why there is nothing: inert text (a student names the pair)."""
    student, problem_id = pair
    return for_terminal(f"stress: {student}/{problem_id}: {_outcome(found)}")


def _outcome(found: StressReport | str) -> str:
    if isinstance(found, str):
        return " ".join(found.split())
    failure = found.failure
    if failure is None:
        return f"no failing input in {found.judged} inputs ({found.seconds} s)"
    origin = (
        f", from test {found.from_test}" + (", made smaller" if found.simplified else "")
        if found.from_test
        else f", seed {found.seed}"
    )
    return f"{failure.verdict.short} at {found.size}{origin}" if found.size else failure.verdict.short
