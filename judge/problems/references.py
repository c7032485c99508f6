"""A problem's reference submissions, each with the verdict it must get: what `judge verify` judges and where
`judge stress` finds its trusted reference.

A problem package lists its own (`problem.references`, read by packages/submissions.py); for a problem in our
layout they are the files of `submissions/<id>/<verdict folder>/`, each expected to get the verdict its folder names.
"""

from __future__ import annotations

from pathlib import Path

from judge.errors import SpecError
from judge.problems.expectations import Expectation, Reference
from judge.problems.model import Problem
from judge.verdicts import Verdict


def reference_submissions(problem: Problem, submissions_dir: Path) -> list[Reference]:
    """The problem's own reference submissions (a package's), else every file under submissions/<id>/<expected>/,
    expected to get the verdict its folder names."""
    if problem.references is not None:
        return list(problem.references)
    root = submissions_dir / problem.id
    found = []
    for folder in sorted(path for path in root.iterdir() if path.is_dir()) if root.is_dir() else []:
        try:
            expected = Verdict.from_folder(folder.name)
        except KeyError:
            names = ", ".join(verdict.folder for verdict in Verdict if verdict is not Verdict.JE)
            raise SpecError(f"{folder}: not a verdict folder; use one of {names}") from None
        found += [Reference(path, Expectation.of(expected)) for path in sorted(folder.iterdir()) if path.is_file()]
    return found
