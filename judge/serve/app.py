"""The Starlette application: the API's and the pages' routes, the static script and style sheet, and the
security headers every response carries (sessions live in the store: service.py and auth.py).

Content-Security-Policy: scripts, styles, images and connections from this server only, and no inline script or
style at all (the one script is static/app.js), so markup that slipped into a page still could not run. Nothing
else is served: no route reads the data folder or the problems except the pages that show what a student needs.
"""

from __future__ import annotations

from pathlib import Path

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.routing import Mount
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from judge.serve.api import api_routes
from judge.serve.forms import largest_source
from judge.serve.http_bounds import BoundedBody, RequestBounds
from judge.serve.pages import Pages
from judge.serve.service import ServeContext

STATIC = Path(__file__).parent / "static"
SECURITY_HEADERS = {
    b"content-security-policy": (
        b"default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; "
        b"connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'"
    ),
    b"x-content-type-options": b"nosniff",
    b"x-frame-options": b"DENY",
    b"referrer-policy": b"no-referrer",
    b"cache-control": b"no-store",
}


class SecurityHeaders:
    """Adds SECURITY_HEADERS to every response (plain ASGI middleware: it never buffers a body)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                present = {name.lower() for name, _ in message.get("headers", [])}
                message["headers"] = [
                    *message.get("headers", []),
                    *((name, value) for name, value in SECURITY_HEADERS.items() if name not in present),
                ]
            await send(message)

        await self.app(scope, receive, with_headers)


def create_app(context: ServeContext) -> Starlette:
    pages = Pages(context)
    return Starlette(
        routes=[*api_routes(context), *pages.routes(), Mount("/static", StaticFiles(directory=STATIC), name="static")],
        middleware=[
            Middleware(SecurityHeaders),
            Middleware(BoundedBody, bounds=RequestBounds(lambda: largest_source(context), _takes_a_submission)),
        ],
    )


def _takes_a_submission(path: str) -> bool:
    """The paths whose POST carries a source: the API's and a problem page's form."""
    return path == "/api/submissions" or path.startswith("/problems/")
