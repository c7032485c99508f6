"""What a POST brings, read the same way for the JSON API and the pages: the bounded form, a submission's
fields, and the one CSRF check. api.py and pages.py are peers above this module; neither imports the other.

A browser's POST must carry its CSRF token: a form in the `csrf` field, the pages' script in the X-CSRF-Token
header. The token expected is the browser's session's or, before it signs in, its login cookie's (a
double-submitted copy, auth.py). `csrf_holds` is the one comparison, in constant time. A script sending HTTP Basic
carries no token; api.py refuses such a POST when a browser marks it as sent from another site's page.
"""

from __future__ import annotations

from starlette.datastructures import FormData, UploadFile
from starlette.exceptions import HTTPException
from starlette.requests import Request

from judge.serve.auth import LOGIN_COOKIE, same_secret
from judge.serve.service import HttpRefusal, ServeContext

MAX_FORM_PARTS = 8


def largest_source(context: ServeContext) -> int:
    """The largest source any problem accepts, in bytes."""
    return 1024 * max((problem.spec.source_limit for problem in context.problems.values()), default=64)


async def bounded_form(request: Request, context: ServeContext) -> FormData:
    """The request's form (parsed once; Starlette keeps it), at most one file and a few fields, none larger than
    the largest source any problem accepts (the body as a whole was bounded as it arrived: http_bounds.py)."""
    biggest = largest_source(context)
    try:
        return await request.form(max_files=1, max_fields=MAX_FORM_PARTS, max_part_size=biggest + 1)
    except HTTPException as error:  # python-multipart's limits, as Starlette words them
        raise HttpRefusal(error.status_code, f"the form was refused: {error.detail}") from None


async def read_submission_form(request: Request, context: ServeContext) -> tuple[str, str, bytes, str | None]:
    """(problem, file name, source, language) of a submission form: the file `file`, or pasted `code`."""
    biggest = largest_source(context)
    form = await bounded_form(request, context)
    problem_id = str(form.get("problem") or "")
    language = str(form.get("language") or "") or None
    upload = form.get("file")
    if isinstance(upload, UploadFile) and upload.filename:
        source = await upload.read(biggest + 1)
        file_name = upload.filename
    else:
        source = str(form.get("code") or "").encode("utf-8", "surrogatepass")
        file_name = ""
    await form.close()
    return problem_id, file_name, source, language


def csrf_token(request: Request, context: ServeContext) -> str | None:
    """The token this browser's POSTs must carry: its session's, or before it signs in, its login cookie's."""
    session = context.session(request)
    return session.csrf if session is not None else request.cookies.get(LOGIN_COOKIE)


def csrf_holds(request: Request, context: ServeContext, given: object) -> bool:
    """Whether `given` (a form's field, a script's header) is this browser's token; never without a token."""
    return same_secret(str(given or ""), csrf_token(request, context) or "\0")
