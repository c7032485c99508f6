"""A refused form, kept for the page its browser is sent back to: POST-redirect-GET without losing what was typed.

Every page's form answers a POST with a redirect (303), so reloading the page never sends the form again. A refused
POST leaves its words here, under the browser's own secret (its session's CSRF token, or before signing in its
login cookie's), and the page the browser is redirected to takes them once: the refusal's line, and the fields to
put back (a student's pasted code and language, the id typed at sign-in). In this process's memory only: a restart
loses at most a refusal's words, never a submission (those are stored before the redirect).
"""

from __future__ import annotations

import threading
from collections import OrderedDict

from msgspec import Struct, field

MAX_DRAFTS = 512
"""Browsers with a refusal not yet shown; past it the oldest is forgotten (a class is a few dozen browsers)."""


class Draft(Struct, frozen=True):
    """What a refused form leaves for the page at `path`: the refusal's line and the fields to fill in again."""

    path: str
    message: str
    fields: dict[str, str] = field(default_factory=dict)


class Drafts:
    """At most one draft per browser, taken once by the page it was left for; thread-safe."""

    def __init__(self, limit: int = MAX_DRAFTS) -> None:
        self.limit = limit
        self._drafts: OrderedDict[str, Draft] = OrderedDict()
        self._lock = threading.Lock()

    def keep(self, browser: str, draft: Draft) -> None:
        with self._lock:
            self._drafts.pop(browser, None)
            self._drafts[browser] = draft
            while len(self._drafts) > self.limit:
                self._drafts.popitem(last=False)

    def take(self, browser: str | None, path: str) -> Draft | None:
        """The draft left for `path` by this browser (gone once taken); None when there is none for that page."""
        if not browser:
            return None
        with self._lock:
            draft = self._drafts.get(browser)
            if draft is None or draft.path != path:
                return None
            return self._drafts.pop(browser)
