"""What a person is shown of a judged submission: the feedback policy, one function per policy.

`boj` (the default of `judge run`) is what BOJ shows a student: samples with their message and a diff, hidden tests
their verdict, CPU time and memory only, for a message about a wrong answer would give the secret test's data
away. `full` (for the teacher; `judge grade` always records it) shows expected vs got on every test.
Limits, crashes and compiler messages are about the student's own program and are shown under both policies.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

from judge.judging.results import CaseResult, SubmissionResult
from judge.verdicts import Verdict

ABOUT_THE_ANSWER = (Verdict.WA, Verdict.PE)
HIDDEN_NOTICE = "hidden test: verdict only, as on BOJ (--feedback full shows more)"


def _boj(case: CaseResult) -> CaseResult:
    if case.is_sample or case.verdict not in ABOUT_THE_ANSWER:
        return case
    return dataclasses.replace(case, message=HIDDEN_NOTICE, diff="")


def _full(case: CaseResult) -> CaseResult:
    return case


POLICIES: dict[str, Callable[[CaseResult], CaseResult]] = {"boj": _boj, "full": _full}
"""Every policy by name; `judge run --feedback NAME` picks one."""


def shown(result: SubmissionResult, policy: str) -> SubmissionResult:
    """`result` as `policy` lets a person see it."""
    return dataclasses.replace(result, cases=tuple(POLICIES[policy](case) for case in result.cases))


def shown_case(case: CaseResult, policy: str) -> CaseResult:
    """One test as `policy` lets a person see it (for views that print each test as it finishes)."""
    return POLICIES[policy](case)
