"""The late rule: on time, a credit reduced per started day, refused after the hard deadline."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from judge.course.late_policy import DAY, ON_TIME, credit, hard_deadline
from judge.course.model import LatePolicy

DUE = 1_800_000_000.0
TEN_A_DAY = LatePolicy(percent_per_day=10, max_days=3)


@pytest.mark.parametrize(
    ("after_due", "factor", "rule"),
    [
        (-DAY, 1.0, ON_TIME),
        (0, 1.0, ON_TIME),
        (1, 0.9, "1 day late: 90 % (10 % a day, at most 3 days)"),
        (DAY, 0.9, "1 day late: 90 % (10 % a day, at most 3 days)"),
        (DAY + 1, 0.8, "2 days late: 80 % (10 % a day, at most 3 days)"),
        (3 * DAY, 0.7, "3 days late: 70 % (10 % a day, at most 3 days)"),
    ],
)
def test_credit_per_started_day(after_due: float, factor: float, rule: str) -> None:
    worth = credit(DUE + after_due, DUE, TEN_A_DAY)
    assert not worth.refused
    assert worth.factor == pytest.approx(factor)
    assert worth.rule == rule


def test_refused_one_second_after_the_hard_deadline_with_when_it_closed() -> None:
    worth = credit(DUE + 3 * DAY + 1, DUE, TEN_A_DAY)
    assert worth.refused
    assert worth.factor == 0
    assert worth.rule == "the assignment closed at 2027-01-18 08:00 UTC; no more submissions are accepted"


def test_refuse_policy_closes_at_the_due_time() -> None:
    assert not credit(DUE, DUE, LatePolicy()).refused
    worth = credit(DUE + 1, DUE, LatePolicy())
    assert worth.refused
    assert "closed at 2027-01-15 08:00 UTC" in worth.rule


def test_a_steep_policy_never_goes_below_nothing() -> None:
    worth = credit(DUE + 4 * DAY, DUE, LatePolicy(percent_per_day=40, max_days=5))
    assert worth.factor == 0
    assert worth.rule == "4 days late: 0 % (40 % a day, at most 5 days)"


policies = st.builds(
    LatePolicy,
    percent_per_day=st.floats(min_value=0, max_value=100),
    max_days=st.one_of(st.just(0.0), st.floats(min_value=0.01, max_value=30)),
)
offsets = st.floats(min_value=-30 * DAY, max_value=60 * DAY)


@given(policies, offsets, offsets)
def test_credit_never_grows_with_lateness(policy: LatePolicy, first: float, second: float) -> None:
    earlier, later = sorted((first, second))
    sooner, after = credit(DUE + earlier, DUE, policy), credit(DUE + later, DUE, policy)
    assert after.factor <= sooner.factor
    assert not (sooner.refused and not after.refused)


@given(policies, offsets)
def test_credit_is_a_fraction_and_refused_exactly_past_the_hard_deadline(policy: LatePolicy, offset: float) -> None:
    worth = credit(DUE + offset, DUE, policy)
    assert 0 <= worth.factor <= 1
    assert worth.refused == (DUE + offset > hard_deadline(DUE, policy))
    if worth.refused:
        assert worth.factor == 0
        assert "closed at" in worth.rule
