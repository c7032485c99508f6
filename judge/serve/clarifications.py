"""Clarifications: a student asks about a problem (a bounded question, rate-limited like submissions), the teacher
answers to the asker alone or to everyone, and each student's pages show what they may read without a reload
(static/app.js polls `GET /api/clarifications`).

A student is shown their own questions and those answered to everyone, never another student's private question
or answer, and never who asked a question answered to everyone: `visible_documents` is the one place that decides,
for the page and the API alike. Every question and answer is hostile text: templates escape it, the API makes it
visible (api.py), the script sets it as textContent.
"""

from __future__ import annotations

from typing import Any

from judge.serve.auth import Caller, RateLimiter
from judge.serve.service import HttpRefusal
from judge.serve.store import Clarification, Store

MAX_QUESTION = 1000
MAX_ANSWER = 2000
QUESTIONS_PER_MINUTE = 3
ANSWER_TARGETS = ("asker", "everyone")


class ClarificationDesk:
    """Where questions arrive and answers leave; it holds the per-student limit on questions (one per server)."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.limits = RateLimiter(QUESTIONS_PER_MINUTE, 60.0)

    def ask(self, caller: Caller, problem_id: str, problems: set[str], text: str) -> int:
        """Store a student's question about `problem_id`, or raise HttpRefusal saying why not."""
        if caller.teacher:
            raise HttpRefusal(403, "the teacher answers questions; sign in as a student to ask one")
        if problem_id not in problems:
            raise HttpRefusal(404, "no such problem")
        question = text.strip()
        if not question:
            raise HttpRefusal(400, "write your question first")
        if len(question) > MAX_QUESTION:
            raise HttpRefusal(413, f"the question is {len(question)} characters; ask in at most {MAX_QUESTION}")
        wait = self.limits.retry_after(caller.id)
        if wait:
            raise HttpRefusal(
                429, f"at most {QUESTIONS_PER_MINUTE} questions a minute; ask again in {int(wait) + 1} s", wait
            )
        return self.store.ask(caller.id, problem_id, question)

    def answer(self, clarification_id: int, text: str, target: str) -> None:
        """The teacher's answer, to the asker or to everyone (the question is then shown without the asker)."""
        answer = text.strip()
        if not answer:
            raise HttpRefusal(400, "write an answer first")
        if len(answer) > MAX_ANSWER:
            raise HttpRefusal(413, f"the answer is {len(answer)} characters; answer in at most {MAX_ANSWER}")
        if target not in ANSWER_TARGETS:
            raise HttpRefusal(400, "answer to the asker or to everyone")
        if not self.store.answer(clarification_id, answer, to_everyone=target == "everyone"):
            raise HttpRefusal(404, "no such question")


def visible(store: Store, caller: Caller) -> list[Clarification]:
    """Every question for the teacher; a student's own and those answered to everyone for a student."""
    return store.clarifications() if caller.teacher else store.visible_to(caller.id)


def visible_documents(store: Store, caller: Caller) -> list[dict[str, Any]]:
    """What the caller may read, as the API returns it: a question answered to everyone names its asker only to
    the teacher (`mine` tells a student which are theirs)."""
    return [
        {
            "id": each.id,
            "problem": each.problem_id,
            "question": each.question,
            "asked_at": each.asked_at,
            "answer": each.answer,
            "answered_at": each.answered_at,
            "to_everyone": each.to_everyone,
            "mine": each.student == caller.id,
            **({"student": each.student} if caller.teacher else {}),
        }
        for each in visible(store, caller)
    ]
