"""The problem scanner: which problem folders a folder holds, for every command given a problems folder (`judge
verify`, `grade`, `similarity`, `serve`).

One rule for all of them: entries in natural order (`2` before `10`), hidden entries skipped, links not
followed, and each problem's id must be its folder's name (so no two folders share an id, and a copied folder
that kept the old id is an error, not a problem that silently matches no submission).
"""

from __future__ import annotations

from pathlib import Path

from judge.errors import JudgeError, SpecError
from judge.intake import visible_entries
from judge.problems.load import load_problem_folder
from judge.problems.model import SPEC_FILE, Problem
from judge.suggest import nearby_path


def load_problems(problems_dir: Path) -> dict[str, Problem]:
    """Every problem under `problems_dir` (or `problems_dir` itself if it is one), keyed by id, in natural order."""
    if not problems_dir.is_dir():
        raise JudgeError(
            f"{problems_dir}: no such folder{nearby_path(problems_dir)}; give the folder holding the problem folders"
        )
    if (problems_dir / SPEC_FILE).is_file():
        folders = [problems_dir]
    else:
        folders = [
            Path(entry.path) for entry in visible_entries(problems_dir) if (Path(entry.path) / SPEC_FILE).is_file()
        ]
    loaded = [load_problem_folder(folder) for folder in folders]
    if folders != [problems_dir]:  # folders in one folder have distinct names, so the ids are distinct too
        for problem in loaded:
            require_id_is_folder_name(problem)
    problems = {problem.id: problem for problem in loaded}
    if not problems:
        raise JudgeError(f"{problems_dir}: no problems here (folders with a {SPEC_FILE})")
    return problems


def refuse_duplicate_ids(problems: list[Problem]) -> None:
    """A SpecError when two problems given by path share an id: their submissions could not be told apart."""
    seen: dict[str, Problem] = {}
    for problem in problems:
        if problem.id in seen:
            raise SpecError(f"{problem.root / SPEC_FILE}: id: {problem.id!r} is also the id of {seen[problem.id].root}")
        seen[problem.id] = problem


def require_id_is_folder_name(problem: Problem) -> None:
    """A SpecError unless a problem's id is its folder's name: submissions are found by id (`submissions/<id>/`,
    `<student>/<id>.py`), so a folder copied to start a new problem with the old id would silently match nothing."""
    if problem.id != problem.root.name:
        raise SpecError(
            f"{problem.root / SPEC_FILE}: id: {problem.id!r} differs from its folder's name "
            f'{problem.root.name!r}; set id: "{problem.root.name}" (or rename the folder)'
        )
