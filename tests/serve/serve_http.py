"""A browser's requests, as bytes on the wire, to a real `judge serve`: from a chosen source address (127.0.0.1 and
127.0.0.2 are two machines to the server), with the cookies it was given (copied to another browser, kept across a
restart), any header a browser or a proxy adds, and the Set-Cookie lines it gets. http_session.py's urllib opener
does the plain signed-in case; urllib chooses neither the source address nor which cookies go.
"""

from __future__ import annotations

import base64
import http.client
import urllib.parse
from dataclasses import dataclass, field
from http.cookies import SimpleCookie

from http_session import CSRF_INPUT, CSRF_META

TIMEOUT = 60.0


@dataclass(frozen=True)
class Answer:
    status: int
    headers: list[tuple[str, str]]
    body: str

    def header(self, name: str) -> str:
        return next((value for key, value in self.headers if key.lower() == name.lower()), "")

    def set_cookie(self, name: str) -> str:
        """The Set-Cookie line for cookie `name` ('' when none)."""
        return next((value for key, value in self.headers
                     if key.lower() == "set-cookie" and value.startswith(f"{name}=")), "")

    def meta_csrf(self) -> str:
        """The CSRF token a signed-in page carries for its forms and script."""
        found = CSRF_META.search(self.body)
        assert found, self.body[:500]
        return found.group(1)


def basic(user: str, password: str) -> dict[str, str]:
    return {"Authorization": "Basic " + base64.b64encode(f"{user}:{password}".encode()).decode("ascii")}


@dataclass
class Browser:
    """One browser on the machine at `source`: the cookies the server set, sent back on every request."""

    url: str
    source: str = "127.0.0.1"
    cookies: dict[str, str] = field(default_factory=dict)

    def request(self, method: str, path: str, headers: dict[str, str] | None = None, body: bytes | None = None,
                content_type: str = "") -> Answer:
        parts = urllib.parse.urlsplit(self.url)
        connection = http.client.HTTPConnection(parts.hostname or "", parts.port, timeout=TIMEOUT,
                                                source_address=(self.source, 0))
        sent = dict(headers or {})
        if self.cookies:
            sent["Cookie"] = "; ".join(f"{name}={value}" for name, value in self.cookies.items())
        if content_type:
            sent["Content-Type"] = content_type
        try:
            connection.request(method, path, body=body, headers=sent)
            response = connection.getresponse()
            answer = Answer(response.status, response.getheaders(), response.read().decode("utf-8", "replace"))
        finally:
            connection.close()
        for key, value in answer.headers:
            if key.lower() == "set-cookie":
                for name, morsel in SimpleCookie(value).items():
                    if morsel["max-age"] == "0" or not morsel.value:
                        self.cookies.pop(name, None)
                    else:
                        self.cookies[name] = morsel.value
        return answer

    def get(self, path: str, headers: dict[str, str] | None = None) -> Answer:
        return self.request("GET", path, headers)

    def post_form(self, path: str, fields: dict[str, str], headers: dict[str, str] | None = None) -> Answer:
        return self.request("POST", path, headers, urllib.parse.urlencode(fields).encode(),
                            "application/x-www-form-urlencoded")

    def post_multipart(self, path: str, fields: dict[str, str], headers: dict[str, str] | None = None) -> Answer:
        boundary = "judge-test-boundary"
        body = "".join(f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"\r\n\r\n{value}\r\n'
                       for name, value in fields.items()) + f"--{boundary}--\r\n"
        return self.request("POST", path, headers, body.encode(), f"multipart/form-data; boundary={boundary}")

    def sign_in(self, user: str, password: str, headers: dict[str, str] | None = None) -> Answer:
        """The login form as a person fills it in: the page (and its cookie), then the POST; its answer."""
        page = self.get("/login", headers)
        token = CSRF_INPUT.search(page.body)
        assert token, page.body[:500]
        return self.post_form("/login", {"csrf": token.group(1), "id": user, "password": password}, headers)

    def signed_in(self) -> bool:
        """Whether the home page shows (a signed-out browser is sent to /login)."""
        answer = self.get("/")
        assert answer.status in (200, 303), answer.status
        return answer.status == 200


def signed_in_browser(url: str, user: str, password: str) -> Browser:
    """A browser signed in through the login form."""
    browser = Browser(url)
    assert browser.sign_in(user, password).status == 303
    return browser


def ok_body(answer: Answer) -> str:
    """The body of a page that must have answered 200."""
    assert answer.status == 200, (answer.status, answer.body[:500])
    return answer.body
