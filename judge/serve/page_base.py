"""What every page of serve shares: the template environment (the judge's one HTML engine, with serve's filters),
rendering with the session's CSRF token and a refused form's draft, the cookies, and the wrappers that let only a
signed-in caller (or the teacher) in and send a refused form back (pages.py and its feature mixins build on it)."""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from starlette.requests import Request
from starlette.responses import HTMLResponse, RedirectResponse, Response

from judge.course.late_policy import hard_deadline, policy_words
from judge.course.times import iso_time, shown_time
from judge.problems.model import Problem
from judge.reporters.html import environment
from judge.serve.auth import CSRF_FIELD, LOGIN_COOKIE, Caller, new_csrf_token
from judge.serve.contest import countdown, input_time
from judge.serve.drafts import Draft
from judge.serve.feedback import language_name
from judge.serve.forms import bounded_form, csrf_holds, csrf_token
from judge.serve.service import HttpRefusal, ServeContext
from judge.serve.statement import StatementPage, statement_page

TEMPLATES = Path(__file__).parent / "templates"
Page = Callable[[Request, ServeContext, Caller], Awaitable[Response]]


class PageBase:
    """One `ServeContext` and one template environment, and what every page does with them."""

    def __init__(self, context: ServeContext) -> None:
        self.context = context
        self.env = environment(TEMPLATES)  # the judge's one HTML engine, with serve's filter of a moment's time
        self.env.filters["when"] = lambda moment: shown_time(moment) if moment else ""
        self.env.filters["iso"] = iso_time
        self.env.filters["countdown"] = countdown
        self.env.filters["input_time"] = input_time
        self.env.filters["language_name"] = language_name
        self.env.filters["late_words"] = policy_words
        self.env.filters["closes"] = lambda assignment: hard_deadline(assignment.due, assignment.late)
        self._statements: dict[str, tuple[Problem, StatementPage]] = {}

    def statement(self, problem: Problem) -> StatementPage:
        """The problem's page, rendered once for each time the problems are read (`reload_problems`)."""
        cached = self._statements.get(problem.id)
        if cached is None or cached[0] is not problem:
            cached = self._statements[problem.id] = (problem, statement_page(problem))
        return cached[1]

    def render(self, request: Request, template: str, status: int = 200, **values: Any) -> HTMLResponse:
        """The page; on a GET, with what a refused form left for it (its line, its fields as `draft`)."""
        known = csrf_token(request, self.context)
        token = known or new_csrf_token()
        caller = values.pop("caller", None)
        draft = self.context.drafts.take(known, request.url.path) if request.method == "GET" else None
        if draft is not None:
            values["message"] = values.get("message") or draft.message
        html = self.env.get_template(template).render(
            csrf=token,
            caller=caller,
            announcements=self.context.store.announcements(),
            contest=self.context.settings(),
            now=time.time(),
            draft=draft.fields if draft is not None else {},
            **values,
        )
        response = HTMLResponse(html, status_code=status)
        if token != known:
            self.set_cookie(response, request, LOGIN_COOKIE, token)
        return response

    def set_cookie(self, response: Response, request: Request, name: str, value: str, *, keep: bool = True) -> None:
        """HttpOnly, SameSite=Strict, and Secure when the browser reached us over HTTPS (directly, or through a
        --trusted-proxy that says so); `keep=False` deletes it."""
        response.set_cookie(
            name,
            value,
            max_age=int(self.context.lifetimes.absolute_seconds) if keep else 0,
            httponly=True,
            samesite="strict",
            secure=request.url.scheme == "https",
        )

    def signed_in(
        self, page: Page, *, teacher: bool = False, back: str = ""
    ) -> Callable[[Request], Awaitable[Response]]:
        """`page` for a signed-in caller (the teacher only, with `teacher`). A refused POST is sent back (303) to
        `back` (else the page it was posted to) with the refusal's line: a reload never sends it again."""

        async def endpoint(request: Request) -> Response:
            caller = None
            try:
                caller = self.context.caller(request) if "authorization" not in request.headers else None
                if caller is None:
                    return RedirectResponse("/login", status_code=303)
                if teacher and not caller.teacher:
                    raise HttpRefusal(404, "no such page")
                if request.method == "POST":
                    form = await bounded_form(request, self.context)
                    if not csrf_holds(request, self.context, form.get(CSRF_FIELD)):
                        raise HttpRefusal(403, "this form expired (missing or wrong CSRF token); send it again")
                return await page(request, self.context, caller)
            except HttpRefusal as refusal:
                if request.method == "POST" and caller is not None:
                    return self.sent_back(request, Draft(back or request.url.path, refusal.message))
                return self.render(request, "error.html", refusal.status, caller=caller, message=refusal.message)

        return endpoint

    def teacher_only(self, page: Page) -> Callable[[Request], Awaitable[Response]]:
        """A teacher's page or form; a refused form returns to the teacher's page."""
        return self.signed_in(page, teacher=True, back="/teacher")

    def sent_back(self, request: Request, draft: Draft) -> Response:
        """A refused form: its draft kept for the page it returns to, and the browser sent there (303)."""
        browser = csrf_token(request, self.context)
        if browser:
            self.context.drafts.keep(browser, draft)
        return RedirectResponse(draft.path, status_code=303)
