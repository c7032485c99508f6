"""The JSON API (README: "The API"), which the pages' script uses too.

    POST /api/submissions        multipart `problem`, `file`, optional `language` -> 201 {"id": ...}
    GET  /api/submissions        the caller's own submissions' status (the teacher's: everyone's)
    GET  /api/submissions/{id}   the status, "feedback" (the policy) and "result" (feedback.py says which shape)
    GET  /api/scoreboard         the scoreboard as the caller may see it
    GET  /api/problems           the problems' ids and titles
    GET  /api/clarifications     the questions and answers the caller may read (clarifications.py decides)
    POST /api/submissions/{id}/counterexample   ask for a small input the submission fails on -> 202 {"id": ...}
    GET  /api/submissions/{id}/counterexample   the latest request: status, and once done what was found

Scripts authenticate with HTTP Basic (id and password); browsers with the session cookie, and then a POST must
carry the session's CSRF token in the X-CSRF-Token header. A POST with Basic credentials that a browser marks as
sent from another site's page is refused: a browser resends Basic credentials it once saw by itself (auth.py).
Every error is {"error": one line} with its status.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from msgspec.structs import asdict
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from judge.inert import for_terminal, json_document
from judge.serve.auth import CSRF_HEADER, Caller, from_another_site
from judge.serve.clarifications import visible_documents
from judge.serve.counterexamples import ask, shown
from judge.serve.feedback import submission_document, submission_status
from judge.serve.forms import csrf_holds, read_submission_form
from judge.serve.service import HttpRefusal, ServeContext
from judge.serve.store import Filters

Handler = Callable[[Request, ServeContext, Caller], Awaitable[Response]]


class _AsciiJSON(JSONResponse):
    """JSON as judge.inert writes it (pure ASCII), every string in it made visible first: the pages' script
    shows strings as textContent, which would draw an escape sequence or a right-to-left override as nothing or
    as a reordering. Making text visible is idempotent, so `judge submit` escaping it again for the terminal
    changes nothing."""

    def render(self, content: Any) -> bytes:
        return json_document(_visible(content), indent=None).encode("ascii")


def _visible(value: Any) -> Any:
    if isinstance(value, str):
        return for_terminal(value)
    if isinstance(value, dict):
        return {_visible(key): _visible(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [_visible(item) for item in value]
    return value


def error_response(refusal: HttpRefusal) -> Response:
    headers = {"Retry-After": str(int(refusal.retry_after) + 1)} if refusal.retry_after else {}
    if refusal.status == 401:
        headers["WWW-Authenticate"] = 'Basic realm="judge"'
    return _AsciiJSON({"error": refusal.message}, status_code=refusal.status, headers=headers)


def _signed_in(context: ServeContext, handler: Handler) -> Callable[[Request], Awaitable[Response]]:
    async def endpoint(request: Request) -> Response:
        try:
            basic = "authorization" in request.headers
            if basic and request.method == "POST" and _from_another_site(request):
                raise HttpRefusal(403, "refused: HTTP Basic credentials sent from another site's page")
            if basic:  # HTTP Basic may hash (argon2): not on the event loop
                caller = await run_in_threadpool(context.caller, request)
            else:  # a session: one indexed read on a kept connection, cheaper than the hop to a thread
                caller = context.caller(request)
            if caller is None:
                raise HttpRefusal(401, "sign in: HTTP Basic with your id and password, or the page's session")
            if (
                request.method == "POST"
                and not basic
                and not csrf_holds(request, context, request.headers.get(CSRF_HEADER))
            ):
                raise HttpRefusal(403, "missing or wrong CSRF token; reload the page")
            return await handler(request, context, caller)
        except HttpRefusal as refusal:
            return error_response(refusal)

    return endpoint


def _from_another_site(request: Request) -> bool:
    own_origin = f"{request.url.scheme}://{request.url.netloc}"
    return from_another_site(request.headers.get("sec-fetch-site"), request.headers.get("origin"), own_origin)


async def _post_submission(request: Request, context: ServeContext, caller: Caller) -> Response:
    problem_id, file_name, source, language = await read_submission_form(request, context)
    submission_id = await run_in_threadpool(context.submit, caller, problem_id, file_name, source, language)
    return _AsciiJSON(
        {"id": submission_id, "url": f"/api/submissions/{submission_id}"},
        status_code=201,
        headers={"Location": f"/api/submissions/{submission_id}"},
    )


async def _list_submissions(request: Request, context: ServeContext, caller: Caller) -> Response:
    rows = context.store.submissions(Filters() if caller.teacher else Filters(student=caller.id))
    return _AsciiJSON([submission_status(row, teacher=caller.teacher) for row in rows])


async def _get_submission(request: Request, context: ServeContext, caller: Caller) -> Response:
    try:
        submission_id = int(request.path_params["submission_id"])
    except ValueError:
        raise HttpRefusal(404, "no such submission") from None
    submission = context.visible_submission(caller, submission_id)
    return _AsciiJSON(submission_document(submission, teacher=caller.teacher))


async def _get_scoreboard(request: Request, context: ServeContext, caller: Caller) -> Response:
    board = context.scoreboard(caller)
    return _AsciiJSON(
        {
            "problems": list(board.problems),
            "frozen": board.frozen,
            "scored": board.scored,
            "rows": [
                {**asdict(row), "cells": {key: asdict(cell) for key, cell in row.cells.items()}} for row in board.rows
            ],
        }
    )


async def _get_problems(request: Request, context: ServeContext, caller: Caller) -> Response:
    return _AsciiJSON(
        [
            {"id": problem.id, "title": problem.spec.title, "source_limit_kib": problem.spec.source_limit}
            for problem in context.problems.values()
        ]
    )


async def _get_clarifications(request: Request, context: ServeContext, caller: Caller) -> Response:
    return _AsciiJSON(visible_documents(context.store, caller))


async def _ask_counterexample(request: Request, context: ServeContext, caller: Caller) -> Response:
    url = f"/api/submissions/{request.path_params['submission_id']}/counterexample"
    try:
        submission_id = int(request.path_params["submission_id"])
    except ValueError:
        raise HttpRefusal(404, "no such submission") from None
    request_id = await run_in_threadpool(ask, context, caller, submission_id)
    return _AsciiJSON({"id": request_id, "url": url}, status_code=202, headers={"Location": url})


async def _get_counterexample(request: Request, context: ServeContext, caller: Caller) -> Response:
    try:
        submission_id = int(request.path_params["submission_id"])
    except ValueError:
        raise HttpRefusal(404, "no such submission") from None
    submission = context.visible_submission(caller, submission_id)
    latest = context.store.counterexample_of(submission.id)
    if latest is None:
        raise HttpRefusal(404, f"no counterexample asked for submission {submission.id}")
    return _AsciiJSON(shown(latest, context.problems.get(submission.problem_id), teacher=caller.teacher).to_dict())


def counterexample_routes(context: ServeContext) -> list[Route]:
    path = "/api/submissions/{submission_id}/counterexample"
    return [
        Route(path, _signed_in(context, _ask_counterexample), methods=["POST"]),
        Route(path, _signed_in(context, _get_counterexample), methods=["GET"]),
    ]


def api_routes(context: ServeContext) -> list[Route]:
    return [
        Route("/api/submissions", _signed_in(context, _post_submission), methods=["POST"]),
        Route("/api/submissions", _signed_in(context, _list_submissions), methods=["GET"]),
        Route("/api/submissions/{submission_id}", _signed_in(context, _get_submission), methods=["GET"]),
        Route("/api/scoreboard", _signed_in(context, _get_scoreboard), methods=["GET"]),
        Route("/api/problems", _signed_in(context, _get_problems), methods=["GET"]),
        Route("/api/clarifications", _signed_in(context, _get_clarifications), methods=["GET"]),
        *counterexample_routes(context),
    ]
