"""What a submission at a given moment is worth under an assignment's late policy: the credit factor and the rule
in words, or a refusal once the assignment has closed. One function, so that serve's submit, its pages, its
scoreboard and the grades all count lateness alike.

A day late is each started 24 hours after the due time: one second late is one day late."""

from __future__ import annotations

import math

from msgspec import Struct

from judge.course.model import LatePolicy
from judge.course.times import shown_time

DAY = 24 * 60 * 60
ON_TIME = "on time"


class Credit(Struct, frozen=True):
    """A submission's worth: `factor` (0..1) of its fraction, and `rule`, the rule that gave it, in words. A
    `refused` submission is never stored; its `rule` is the one line that says when the assignment closed."""

    factor: float
    rule: str
    refused: bool = False
    days_late: int = 0


def hard_deadline(due: float, policy: LatePolicy) -> float:
    """The last moment a submission is accepted: the due time itself when late ones are refused."""
    return due + policy.max_days * DAY


def number(value: float) -> str:
    """A percentage or a count of days as a teacher wrote it: 10, not 10.0; 2.5 stays 2.5."""
    return f"{value:g}"


def policy_words(policy: LatePolicy) -> str:
    """The policy as a student reads it: `refused after the due time`, or `10 % a day, at most 3 days`."""
    if policy.refuses_late:
        return "refused after the due time"
    days = "day" if policy.max_days == 1 else "days"
    return f"{number(policy.percent_per_day)} % a day, at most {number(policy.max_days)} {days}"


def closed_line(closed_at: float) -> str:
    return f"the assignment closed at {shown_time(closed_at)}; no more submissions are accepted"


def credit_percent(worth: Credit) -> str:
    """A late credit as the pages say it: `80 %`."""
    return f"{number(worth.factor * 100)} %"


def credit(submitted_at: float, due: float, policy: LatePolicy) -> Credit:
    """The credit of a submission at `submitted_at` for an assignment due at `due` (the student's extension, if
    they have one) under `policy`. On time up to and including the due time; refused after the hard deadline."""
    if submitted_at <= due:
        return Credit(1.0, ON_TIME)
    closes = hard_deadline(due, policy)
    if policy.refuses_late or submitted_at > closes:
        return Credit(0.0, closed_line(closes), refused=True)
    days_late = math.ceil((submitted_at - due) / DAY)
    percent = max(0.0, 100.0 - days_late * policy.percent_per_day)
    plural = "day" if days_late == 1 else "days"
    rule = f"{days_late} {plural} late: {number(percent)} % ({policy_words(policy)})"
    return Credit(percent / 100.0, rule, days_late=days_late)
