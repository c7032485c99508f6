"""The one entry point for loading a problem folder, whatever its layout: ours (folder.py) or a problem package
(packages/). Every command loads problems through `load_problem_folder`."""

from __future__ import annotations

import os
import re
from pathlib import Path

from judge.errors import SpecError
from judge.problems.files import read_problem_file, read_spec_mapping
from judge.problems.folder import load_problem
from judge.problems.model import SPEC_FILE, Problem
from judge.problems.packages.detect import DATA_FOLDER, is_package


def load_problem_folder(root: Path | str, *, require_answers: bool = True) -> Problem:
    """The problem at `root`: a package if it has a data/ folder and a problem.yaml without our keys, else ours.
    Without `require_answers`, an input of ours may lack its .ans (`judge answers` is about to write it); a
    package always ships its answers. Only a folder with a data/ folder has its problem.yaml read here: ours are
    read by load_problem, from the judge's cache when validated before (no PyYAML, no pydantic)."""
    root = Path(root)
    spec_path = root / SPEC_FILE
    if root.is_dir() and (root / DATA_FOLDER).is_dir():
        if not os.path.lexists(spec_path):
            raise SpecError(f"{spec_path}: missing; a problem package needs a problem.yaml (it may be empty)")
        raw = read_spec_mapping(spec_path, "id, title, time_limit, ... or a package's name, limits, ...", empty_ok=True)
        if is_package(root, raw):
            from judge.problems.packages.loader import load_package  # noqa: PLC0415 -- pydantic only for a package

            return load_package(root, raw)
    elif root.is_dir() and _names_a_format_version(spec_path):
        raise SpecError(
            f"{root / DATA_FOLDER}: missing; {spec_path.name} names a problem_format_version, so this is a problem "
            f"package, whose tests are in data/ (BAPCtools makes them from generators/generators.yaml: `bt generate`)"
        )
    return load_problem(root, require_answers=require_answers)


def _names_a_format_version(spec_path: Path) -> bool:
    """Whether problem.yaml has a top-level `problem_format_version:` line, which only a package's has (our schema
    refuses the key): read as bytes, a few microseconds, so our problems keep being loaded from the cache."""
    try:
        head = read_problem_file(spec_path, spec_path.parent, 64 * 1024, what=SPEC_FILE)
    except (SpecError, OSError):
        return False  # load_problem names what is wrong with it
    return re.search(rb"^problem_format_version\s*:", head, re.MULTILINE) is not None
