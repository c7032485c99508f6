"""The problem scanner of every batch (`judge verify`, `judge grade`): which problem folders a folder holds.

One rule for both commands: entries in natural order (`2` before `10`), hidden entries skipped, links not
followed, and two folders with the same problem id refused.
"""

from __future__ import annotations

import os
from pathlib import Path

from judge.errors import JudgeError, SpecError
from judge.problem import SPEC_FILE, Problem, natural_key
from judge.problem_folder import load_problem_folder


def load_problems(problems_dir: Path) -> dict[str, Problem]:
    """Every problem under `problems_dir` (or `problems_dir` itself if it is one), keyed by id, in natural order."""
    if not problems_dir.is_dir():
        raise JudgeError(f"{problems_dir}: no such folder; give the folder holding the problem folders")
    if (problems_dir / SPEC_FILE).is_file():
        folders = [problems_dir]
    else:
        folders = [Path(entry.path) for entry in visible_entries(problems_dir) if (Path(entry.path) / SPEC_FILE).is_file()]
    problems: dict[str, Problem] = {}
    for folder in folders:
        problem = load_problem_folder(folder)
        if problem.id in problems:
            raise SpecError(f"{folder / SPEC_FILE}: id: {problem.id!r} is also the id of {problems[problem.id].root}")
        problems[problem.id] = problem
    if not problems:
        raise JudgeError(f"{problems_dir}: no problems here (folders with a {SPEC_FILE})")
    return problems


def visible_entries(folder: Path, *, missing_ok: bool = False) -> list[os.DirEntry[str]]:
    """The entries of a folder that are not hidden, in natural order (so reports list them the same each run).

    Entries are not followed: ask them `is_dir(follow_symlinks=False)` or their `stat`. With `missing_ok`, a folder that
    cannot be listed has no entries.
    """
    try:
        with os.scandir(folder) as listing:
            entries = [entry for entry in listing if not entry.name.startswith(".")]
    except OSError:
        if missing_ok:
            return []
        raise
    return sorted(entries, key=lambda entry: natural_key(entry.name))
