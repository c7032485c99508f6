"""A signed-in browser session against a real `judge serve`, with the standard library only (urllib and a cookie
jar): the sign-in form and its CSRF token, as a browser sends them."""

from __future__ import annotations

import re
import urllib.error
import urllib.parse
import urllib.request
from dataclasses import dataclass
from http.cookiejar import CookieJar

CSRF_INPUT = re.compile(r'name="csrf" value="([^"]+)"')
CSRF_META = re.compile(r'name="csrf-token" content="([^"]+)"')


@dataclass(frozen=True)
class Session:
    url: str
    opener: urllib.request.OpenerDirector

    def get(self, path: str) -> tuple[int, bytes]:
        """(status, body) of a GET; an HTTP error is a status, not an exception."""
        try:
            with self.opener.open(self.url + path, timeout=60) as response:
                return response.status, response.read()
        except urllib.error.HTTPError as error:
            return error.code, error.read()

    def post_form(self, path: str, fields: dict[str, str]) -> int:
        """POST a page's form with the session's CSRF token (redirects followed); the final status."""
        status, page = self.get("")
        found = CSRF_META.search(page.decode())
        assert status == 200 and found, (status, page[:200])
        body = urllib.parse.urlencode({"csrf": found.group(1), **fields}).encode()
        try:
            with self.opener.open(self.url + path, data=body, timeout=300) as response:
                return int(response.status)
        except urllib.error.HTTPError as error:
            return error.code


def signed_in(url: str, user: str, password: str) -> Session:
    """A session of `user`, signed in through the login form."""
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(CookieJar()))
    with opener.open(url + "login", timeout=60) as response:
        found = CSRF_INPUT.search(response.read().decode())
    assert found, "no CSRF field on the sign-in page"
    body = urllib.parse.urlencode({"csrf": found.group(1), "id": user, "password": password}).encode()
    with opener.open(url + "login", data=body, timeout=60) as response:  # a refusal is an HTTPError
        assert response.url.startswith(url) and not response.url.endswith("/login"), response.url
    return Session(url, opener)
