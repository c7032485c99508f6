"""The order in which a batch hands its tasks to the workers: the longest first.

A batch ends when its last task does. Handed out in class-folder order, a long pair (a problem with many tests, a
slow language) can start last and run on one core while the other workers idle; started first, it overlaps the
short ones (longest-processing-time-first scheduling, which ends within 4/3 of the best possible time). How long a
task takes is estimated by `expected`: its problem's number of tests, unless the caller knows better (`judge
grade`: how long the pair took the last time). Results are keyed by pair, and every report has an order of its
own, so no output depends on this order.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from judge.batch.tasks import SubmissionTask

Estimate = Callable[[SubmissionTask], float]


def by_test_count(task: SubmissionTask) -> float:
    return float(task.problem.test_count)


def longest_first(tasks: Sequence[SubmissionTask], expected: Estimate = by_test_count) -> list[SubmissionTask]:
    """`tasks` from the longest expected to the shortest; tasks expected to take as long keep their order."""
    return sorted(tasks, key=expected, reverse=True)  # sorted is stable, also in reverse
