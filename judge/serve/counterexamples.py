"""A counterexample that teaches without leaking: a student whose submission got WA on a hidden test asks for a
small input on which it fails, and the judging process finds one with `judge stress` on generated inputs only.

This module is what the pages and the API need: the teacher's switch, who may ask, asking, and what is shown.
The search itself is counterexample_search.py, run by the judging process.

The teacher turns it on per problem on the teacher's page (stored in the settings, as `counterexamples`: the
problems' ids); a problem offers it only with a `strategy.py` or a `generator.py`, and the search needs an
accepted reference (a package's own, else `submissions/<id>/accepted/` beside the problems folder). Asking is
bounded: one pending request per student and PER_HOUR in any hour; each request is logged for the teacher (the
teacher's page lists them). What is shown is text, and reaches a page only through the judge's HTML engine (inert,
autoescaped) or the API's inert JSON. On a problem whose checker is not a built-in comparison (checker.py, a
checker program: many answers may be right) the student sees the checker's message instead of an expected
output. Why a search could not run (paths of the teacher's files) is shown to the teacher only.
"""

from __future__ import annotations

import json
import time

from msgspec import Struct
from msgspec.structs import asdict

from judge.checkers import BUILTIN_CHECKERS
from judge.problems.model import Problem
from judge.serve.auth import Caller
from judge.serve.contest import shown_time
from judge.serve.service import HttpRefusal, ServeContext
from judge.serve.store import StoredCounterexample, StoredSubmission
from judge.stress.inputs import GENERATOR_FILE, STRATEGY_FILE
from judge.verdicts import Verdict

SETTING = "counterexamples"
"""The settings key: a JSON list of the problems whose students may ask."""
PER_HOUR = 3
"""Requests a student may make in any hour."""


# the teacher's switch ---------------------------------------------------------------------------------------------


def enabled_problems(settings: dict[str, str]) -> frozenset[str]:
    """The problems whose students may ask, from the stored settings."""
    try:
        stored = json.loads(settings.get(SETTING) or "[]")
    except json.JSONDecodeError:
        return frozenset()
    return frozenset(item for item in stored if isinstance(item, str)) if isinstance(stored, list) else frozenset()


def stored_setting(problem_ids: list[str]) -> dict[str, str]:
    return {SETTING: json.dumps(sorted(set(problem_ids)))}


def searchable(problem: Problem) -> bool:
    """Whether the problem has inputs to search: a strategy.py or a generator.py."""
    return (problem.root / STRATEGY_FILE).is_file() or (problem.root / GENERATOR_FILE).is_file()


def shows_expected(problem: Problem) -> bool:
    """Whether a built-in comparison judges the problem: then the reference's output is *the* expected output;
    with checker.py or a checker program many outputs may be right, and the student sees the checker's message."""
    return problem.spec.checker.name in BUILTIN_CHECKERS and not problem.interactive


# asking -----------------------------------------------------------------------------------------------------------


def why_not_offered(context: ServeContext, caller: Caller, row: StoredSubmission) -> str:
    """Why the button is not offered on this submission ("" when it is): it must be the student's own, WA on a
    hidden test, on a problem the teacher turned it on for."""
    problem = context.problems.get(row.problem_id)
    result = row.result
    if caller.teacher or row.student != caller.id:
        return "only the student who submitted it may ask"
    if problem is None or row.problem_id not in enabled_problems(context.store.settings()) or not searchable(problem):
        return "the teacher has not turned counterexamples on for this problem"
    if row.verdict is not Verdict.WA or result is None:
        return "only a wrong answer (WA) has a counterexample to find"
    failing = next((case for case in result.cases if case.verdict is not Verdict.AC), None)
    if failing is None or failing.is_sample:
        return "it fails on a sample, which you can already see"
    return ""


def ask(context: ServeContext, caller: Caller, submission_id: int) -> int:
    """Store a request for the caller's submission, or raise HttpRefusal with one line saying why not."""
    row = context.visible_submission(caller, submission_id)
    why = why_not_offered(context, caller, row)
    if why:
        raise HttpRefusal(403, f"no counterexample for submission {row.id}: {why}")
    asked = context.store.ask_counterexample(row.id, caller.id, row.problem_id, PER_HOUR)
    if asked.pending:
        raise HttpRefusal(429, "you already have a counterexample being searched for; wait for it")
    if asked.again_at is not None:
        wait = max(asked.again_at - time.time(), 0.0)
        raise HttpRefusal(
            429,
            f"at most {PER_HOUR} counterexamples an hour; you may ask again at {shown_time(asked.again_at)}",
            wait,
        )
    assert asked.id is not None
    return asked.id


class Shown(Struct, frozen=True):
    """A request as a page or the API shows it: text only, decoded and bounded (inert on the way out)."""

    id: int
    status: str
    found: str
    input: str
    expected: str
    actual: str
    verdict: str
    message: str
    special_judge: bool

    def to_dict(self) -> dict[str, object]:
        return asdict(self)


def shown(request: StoredCounterexample, problem: Problem | None, *, teacher: bool) -> Shown:
    """The request as `teacher` or its student sees it (a failed search's reason is the teacher's to read)."""
    result = request.result
    special = problem is not None and not shows_expected(problem)
    if result is None:
        return Shown(request.id, request.status, "", "", "", "", "", "", special)
    failed_for_student = result.found == "failed" and not teacher
    return Shown(
        id=request.id,
        status=request.status,
        found=result.found,
        input=_text(result.input),
        expected="" if special else _text(result.expected),
        actual=_text(result.actual),
        verdict=result.verdict,
        message="the search could not run; the teacher can see why" if failed_for_student else result.message,
        special_judge=special,
    )


def _text(data: bytes) -> str:
    return data.decode("utf-8", errors="replace")
