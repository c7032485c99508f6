"""What one client can make the server hold: bytes of a request body, time to send headers and a body, and open
connections. Every bound is enforced while the bytes arrive, so nothing a stranger sends is kept past it.

- A request body is read whole before any route sees it, at most `RequestBounds.body_bytes(path)` bytes (a
  submission's form: the largest source any problem accepts and some slack; any other form: `FORM_BYTES`). A
  declared Content-Length past it is refused at once; a chunked body (no length) as soon as it passes it. Either
  way 413 and the connection closed, nothing kept. The body is then in memory, which keeps uploads off the disk
  the judging's temporary folder is on (the bound is far below python-multipart's spooling threshold), and the
  whole body must arrive within `BODY_SECONDS` (408 otherwise).
- A connection must complete its request's headers within `HEADER_SECONDS` of opening (or of its previous
  response): uvicorn itself waits forever, so a thousand silent sockets would hold every descriptor.
- At most `max_connections` requests are served at once (uvicorn's limit_concurrency answers 503 past it), and a
  connection opened while that many are open is given only `CROWDED_HEADER_SECONDS` to send its request, which a
  real client does at once. Twice as many open connections are closed as they arrive.
- One address keeps at most `PER_ADDRESS` connections open (503 past it), so one stranger reopening silent
  sockets cannot hold the server at its bound; a `--trusted-proxy` carries everyone's and is not counted.
- The descriptor limit is raised to the hard limit at start, and `max_connections` fits under it.
"""

from __future__ import annotations

import asyncio
import ipaddress
import json
import resource
from collections import Counter
from collections.abc import Callable, Sequence

import h11
from msgspec import Struct
from starlette.types import ASGIApp, Message, Receive, Scope, Send
from uvicorn.protocols.http.h11_impl import H11Protocol

FORM_BYTES = 64 * 1024
"""Any form but a submission's (sign-in, settings, an announcement of 2,000 characters) fits in this."""
UPLOAD_SLACK_BYTES = 64 * 1024
"""A submission's body may exceed the largest source limit by this much (the form's other fields, boundaries)."""
BODY_SECONDS = 30.0
"""A 128 KiB form at 4 KiB/s, a poor lab Wi-Fi, still arrives."""
HEADER_SECONDS = 10.0
CROWDED_HEADER_SECONDS = 1.0
MAX_CONNECTIONS = 1000
"""Requests served at once: a class of a hundred, each with a browser's six connections, and room to spare."""
PER_ADDRESS = 256
"""Connections one address may hold open: a lab of 40 behind one NAT, each browser with its six, fits."""
RESERVED_DESCRIPTORS = 256
"""Descriptors kept for everything but connections: the database, the judging process's pipes, the log."""


def raise_descriptor_limit() -> int:
    """Raise this process's open-file limit to its hard limit (a login shell's 1,024 is not enough for a class);
    the limit now in force."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard == resource.RLIM_INFINITY or hard > soft:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
            soft = hard
        except (ValueError, OSError):
            pass  # refused (an unusual hard limit): the bound below fits the soft one
    return soft


def connections_within(descriptors: int) -> int:
    """The requests served at once that `descriptors` leaves room for: twice as many sockets may be open (the
    crowded ones wait `CROWDED_HEADER_SECONDS` to be dropped), and `RESERVED_DESCRIPTORS` stay free."""
    return max(16, min(MAX_CONNECTIONS, (descriptors - RESERVED_DESCRIPTORS) // 2))


def guarded_protocol(max_connections: int, trusted_proxies: Sequence[str] = ()) -> type[H11Protocol]:
    """uvicorn's h11 protocol with the header deadline and the bounds on open connections (uvicorn takes the
    protocol as a class, so the bounds live in the class made here, with the count of each address's open
    connections: this server's, not the module's)."""
    proxies = [ipaddress.ip_network(proxy, strict=False) for proxy in trusted_proxies]
    open_from: Counter[str] = Counter()

    def counted(address: str) -> bool:
        try:
            return not any(ipaddress.ip_address(address) in proxy for proxy in proxies)
        except ValueError:  # a Unix socket's peer, say: not an address to count
            return False

    class GuardedH11Protocol(H11Protocol):
        _header_deadline: asyncio.TimerHandle | None = None
        _address: str | None = None

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            super().connection_made(transport)
            open_now = len(self.connections)
            if open_now > 2 * max_connections:
                transport.abort()
                return
            address = self.client[0] if self.client else None
            if address is not None and counted(address):
                if open_from[address] >= PER_ADDRESS:
                    transport.write(_plain(503, "too many connections from your address; try again in a moment"))
                    transport.close()
                    return
                open_from[address] += 1
                self._address = address
            self._arm(CROWDED_HEADER_SECONDS if open_now > max_connections else HEADER_SECONDS)

        def connection_lost(self, exc: Exception | None) -> None:
            self._disarm()
            if self._address is not None:
                open_from[self._address] -= 1
                if not open_from[self._address]:
                    del open_from[self._address]
                self._address = None
            super().connection_lost(exc)

        def on_response_complete(self) -> None:
            super().on_response_complete()
            if not self.transport.is_closing():
                self._arm(HEADER_SECONDS)  # a kept-alive connection has as long for its next request's headers

        def _arm(self, seconds: float) -> None:
            self._disarm()
            self._header_deadline = self.loop.call_later(seconds, self._headers_too_slow)

        def _disarm(self) -> None:
            if self._header_deadline is not None:
                self._header_deadline.cancel()
                self._header_deadline = None

        def _headers_too_slow(self) -> None:
            """No complete request headers since the deadline was armed: close (h11 waits for a request while
            the peer's state is IDLE; any later state means its headers arrived)."""
            self._header_deadline = None
            if self.conn.their_state is h11.IDLE and not self.transport.is_closing():
                self.transport.write(_plain(408, "the request's headers did not arrive in time"))
                self.transport.close()

    return GuardedH11Protocol


class RequestBounds(Struct, frozen=True):
    """How large a request body may be, by path (`largest_source` is asked each time: the teacher may read the
    problems again, and their source limits with them)."""

    largest_source: Callable[[], int]
    submission_paths: Callable[[str], bool]

    def body_bytes(self, path: str) -> int:
        if self.submission_paths(path):
            return self.largest_source() + UPLOAD_SLACK_BYTES
        return FORM_BYTES


class BoundedBody:
    """ASGI middleware: read each request's body whole within its bounds (see the module's docstring), then hand
    it to the application as one message."""

    def __init__(self, app: ASGIApp, bounds: RequestBounds) -> None:
        self.app = app
        self.bounds = bounds

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        path = scope["path"]
        limit = self.bounds.body_bytes(path)
        declared = dict(scope["headers"]).get(b"content-length", b"")
        if declared.isdigit() and int(declared) > limit:
            await _refuse(send, path, 413, f"the request is {int(declared)} bytes; at most {limit} are accepted here")
            return
        try:
            body = await asyncio.wait_for(_read_body(receive, limit), BODY_SECONDS)
        except _TooLarge:
            await _refuse(send, path, 413, f"the request is larger than the {limit} bytes accepted here")
            return
        except TimeoutError:
            await _refuse(send, path, 408, f"the request's body did not arrive within {int(BODY_SECONDS)} s")
            return
        if body is None:  # the client went away
            return
        delivered = False

        async def replay() -> Message:
            nonlocal delivered
            if not delivered:
                delivered = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()  # after the body: only a disconnect can come

        await self.app(scope, replay, send)


class _TooLarge(Exception):
    pass


async def _read_body(receive: Receive, limit: int) -> bytes | None:
    """The whole body, or None when the client disconnected; _TooLarge as soon as it passes `limit`."""
    chunks: list[bytes] = []
    size = 0
    while True:
        message = await receive()
        if message["type"] == "http.disconnect":
            return None
        chunk = message.get("body", b"")
        size += len(chunk)
        if size > limit:
            raise _TooLarge
        chunks.append(chunk)
        if not message.get("more_body", False):
            return b"".join(chunks)


async def _refuse(send: Send, path: str, status: int, line: str) -> None:
    """One line, as JSON for the API and as text for a page; the connection is closed after it (the rest of the
    body is never read)."""
    api = path.startswith("/api/")
    body = json.dumps({"error": line}).encode("ascii") if api else (line + "\n").encode("ascii")
    headers: list[tuple[bytes, bytes]] = [
        (b"content-type", b"application/json" if api else b"text/plain; charset=utf-8"),
        (b"content-length", str(len(body)).encode("ascii")),
        (b"connection", b"close"),
    ]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


def _plain(status: int, line: str) -> bytes:
    reason = {408: "Request Timeout", 503: "Service Unavailable"}[status]
    body = (line + "\n").encode("ascii")
    return (
        f"HTTP/1.1 {status} {reason}\r\ncontent-type: text/plain; charset=utf-8\r\n"
        f"content-length: {len(body)}\r\nconnection: close\r\n\r\n"
    ).encode("ascii") + body
