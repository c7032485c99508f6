"""What travels with a grading task besides its source (languages/sources.py): the problem's judging files, as
bytes, with their hash.

Packing lets a Dask worker judge without a shared file system, and it is also the fingerprint: the problem hash
is computed over exactly the bytes that are packed, so a stored result names the data that produced it, even if
someone edits the problem folder while a class is being graded. Only files that affect judging are packed:
problem.yaml, the tests, checker.py when problem.yaml names it, the declared validator (`load_problem` insists
that they exist and are regular files), a package's group settings and `.timelimit`, and files the judge made for
the problem (a derived time limit). Editing statement.md or generator.py therefore does not re-judge a class;
regenerating the tests does.

Every file is read through `judge.intake`, by judge/problems/files.py: never a link leading out of its folder.
"""

from __future__ import annotations

import hashlib
from functools import cached_property
from pathlib import Path

from msgspec import Struct

from judge.problems.files import read_problem_file
from judge.problems.model import CUSTOM_CHECKER_FILE, SPEC_FILE, Problem


class ProblemPack(Struct, frozen=True, dict=True):  # dict: room for the cached `digest`
    """A problem's judging files as (POSIX path relative to the problem folder, content), sorted by path."""

    problem_id: str
    files: tuple[tuple[str, bytes], ...]
    test_count: int
    folder: str = "problem"
    """The folder's own name, which a problem package's id is."""

    @classmethod
    def of(cls, problem: Problem) -> ProblemPack:
        paths = [problem.root / SPEC_FILE, *problem.extra_files]
        if problem.spec.checker.name == CUSTOM_CHECKER_FILE:
            paths.append(problem.custom_checker_path)
        if problem.spec.validator:
            paths.append(problem.root / problem.spec.validator)
        for test in problem.tests:
            paths += [test.input_path, test.answer_path]
        # Read as loading checked them (a link inside the folder packed as a copy); one replaced since is refused.
        packed = {
            path.relative_to(problem.root).as_posix(): read_problem_file(path, problem.root, None) for path in paths
        }
        packed.update(problem.generated)
        folder = problem.root.resolve().name
        return cls(
            problem_id=problem.id,
            files=tuple(sorted(packed.items())),
            test_count=len(problem.tests),
            folder=folder if folder not in ("", ".", "..") else "problem",
        )

    @cached_property
    def digest(self) -> str:
        """sha256 over every path and content, length-prefixed so that no two different packs collide by framing."""
        hasher = hashlib.sha256()
        for name, content in self.files:
            encoded = name.encode()
            hasher.update(len(encoded).to_bytes(8, "big") + encoded + len(content).to_bytes(8, "big"))
            hasher.update(content)
        return hasher.hexdigest()

    def unpack(self, into: Path) -> Path:
        """Write the files under `into` (a fresh folder) and return it, ready for `load_problem`."""
        for name, content in self.files:
            target = into / name
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(content)
        return into
