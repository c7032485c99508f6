""" "Did you mean ...?": the closest known name to a misspelt one, for one-line errors that name the fix."""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path

CUTOFF = 0.6
"""difflib's similarity ratio a candidate needs: `timelimit` finds `time_limit`, `9963` finds `9663`."""


def closest(name: str, candidates: Iterable[str]) -> str | None:
    """The candidate most like `name`, or None when none is close."""
    import difflib  # noqa: PLC0415 -- asked only on an error; a command that succeeds never imports it

    found = difflib.get_close_matches(name, list(candidates), n=1, cutoff=CUTOFF)
    return found[0] if found else None


def nearby_path(path: Path) -> str:
    """`; did you mean 'problems/9663'?` for a path that does not exist, from the entries of its parent folder
    (hidden ones left out), or ""."""
    parent = path.parent
    try:
        names = [entry for entry in os.listdir(parent) if not entry.startswith(".")]
    except OSError:
        return ""
    found = closest(path.name, names)
    return f"; did you mean {str(parent / found)!r}?" if found is not None else ""
