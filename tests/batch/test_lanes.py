"""How many judgings may start (batch/executors/lanes.py): counted from the moments the ones in flight started,
given as numbers, never timed."""

from __future__ import annotations

import pytest

from judge.batch.executors.lanes import Lanes

TWO_WITH_SPARE = Lanes(workers=2, spare=2, slow_after=2.0)


@pytest.mark.parametrize(
    ("lanes", "started", "free"),
    [
        (TWO_WITH_SPARE, [], 2),
        (TWO_WITH_SPARE, [9.5], 1),  # one fresh judging
        (TWO_WITH_SPARE, [9.5, 9.0], 0),  # both workers fresh: the spare slots wait for a slow one
        (TWO_WITH_SPARE, [1.0, 9.0], 1),  # one gone slow: it no longer counts against -j
        (TWO_WITH_SPARE, [1.0, 2.0], 2),  # two endless loops: two fresh ones may start beside them
        (TWO_WITH_SPARE, [1.0, 2.0, 9.0], 1),
        (TWO_WITH_SPARE, [1.0, 2.0, 3.0, 9.0], 0),  # every process busy
        (TWO_WITH_SPARE, [1.0, 2.0, 3.0], 1),  # three slow: one process left
        (Lanes(workers=2), [1.0, 2.0], 0),  # no spare (grade, a Dask cluster): as many as -j, slow or not
        (Lanes(workers=2), [1.0], 1),
    ],
)
def test_free_slots(lanes: Lanes, started: list[float], free: int) -> None:
    assert lanes.free(started, now=10.0) == free


def test_a_judging_is_slow_from_slow_after_on() -> None:
    assert TWO_WITH_SPARE.free([8.0, 9.0], now=10.0) == 1  # 2.0 s exactly: slow
    assert TWO_WITH_SPARE.free([8.5, 9.0], now=10.0) == 0
