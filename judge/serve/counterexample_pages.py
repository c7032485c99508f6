"""A student's counterexample (counterexamples.py) as pages: what their templates ask for, the student's button,
and the teacher's switch; a mixin of `Pages`."""

from __future__ import annotations

from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import RedirectResponse, Response
from starlette.routing import Route

from judge.serve.auth import Caller
from judge.serve.counterexamples import (
    PER_HOUR,
    ask,
    enabled_problems,
    searchable,
    shown,
    stored_setting,
    why_not_offered,
)
from judge.serve.drafts import Draft
from judge.serve.page_base import PageBase
from judge.serve.service import HttpRefusal, ServeContext
from judge.serve.store import StoredSubmission


class CounterexamplePages(PageBase):
    """The counterexample button and switch; their templates' functions go into the environment's globals."""

    def __init__(self, context: ServeContext) -> None:
        super().__init__(context)
        self.env.globals.update(self.counterexample_globals())

    def counterexample_globals(self) -> dict[str, Any]:
        """The functions submission_counterexample.html and teacher_counterexamples.html call."""
        context = self.context

        def of_submission(caller: Caller, row: StoredSubmission) -> dict[str, Any]:
            latest = context.store.counterexample_of(row.id)
            problem = context.problems.get(row.problem_id)
            return {
                "why_not": why_not_offered(context, caller, row),
                "shown": shown(latest, problem, teacher=caller.teacher) if latest is not None else None,
                "per_hour": PER_HOUR,
            }

        def problems() -> list[dict[str, Any]]:
            enabled = enabled_problems(context.store.settings())
            return [
                {"id": key, "title": problem.spec.title, "searchable": searchable(problem), "enabled": key in enabled}
                for key, problem in context.problems.items()
            ]

        def log() -> list[dict[str, Any]]:
            return [
                {"request": request, "shown": shown(request, context.problems.get(request.problem_id), teacher=True)}
                for request in context.store.counterexamples()
            ]

        return {"counterexample_of": of_submission, "counterexample_problems": problems, "counterexample_log": log}

    async def ask_counterexample(self, request: Request, context: ServeContext, caller: Caller) -> Response:
        """The student's button: a request stored, or its one-line refusal, back on the submission's page."""
        try:
            submission_id = int(request.path_params["submission_id"])
        except ValueError:
            raise HttpRefusal(404, "no such submission") from None
        page = f"/submissions/{submission_id}"
        try:
            await run_in_threadpool(ask, context, caller, submission_id)
        except HttpRefusal as refusal:
            return self.sent_back(request, Draft(page, refusal.message))
        return RedirectResponse(page, status_code=303)

    async def counterexample_settings(self, request: Request, context: ServeContext, caller: Caller) -> Response:
        """The teacher's switch: the checked problems (those with inputs to search) offer counterexamples."""
        form = await request.form()
        chosen = [
            str(key)
            for key in form.getlist("problem")
            if str(key) in context.problems and searchable(context.problems[str(key)])
        ]
        context.store.put_settings(stored_setting(chosen))
        return RedirectResponse("/teacher?message=counterexamples+saved", status_code=303)

    def counterexample_routes(self) -> list[Route]:
        return [
            Route(
                "/submissions/{submission_id}/counterexample",
                self.signed_in(self.ask_counterexample),
                methods=["POST"],
            ),
            Route("/teacher/counterexamples", self.teacher_only(self.counterexample_settings), methods=["POST"]),
        ]
