"""A package's reference submissions: every file in `submissions/<folder>/`, expected to get what its folder
means in the specification and what `submissions/submissions.yaml` adds (submissions_yaml.py), unless an
`@EXPECTED_RESULTS@:` line in the file says otherwise (DOMjudge's marker, which packages use:
`@EXPECTED_RESULTS@: WRONG_ANSWER, TIME_LIMIT_EXCEEDED`).

The package's verdicts are coarser than ours: its WA covers our PE, and its RTE covers running out of memory
or output (our MLE and OLE), as problemtools judges them.
"""

from __future__ import annotations

import os
import re
from pathlib import Path, PurePosixPath

from judge.errors import SpecError, SubmissionError
from judge.intake import Refused
from judge.languages.detection import detect_language
from judge.languages.sources import SourceFiles
from judge.problems.expectations import Expectation, Reference
from judge.problems.files import resolve_inside
from judge.problems.model import natural_key
from judge.problems.packages.submissions_yaml import VERDICTS, SubmissionsConfig
from judge.verdicts import Verdict

SUBMISSIONS_FOLDER = "submissions"
MARKER = re.compile(rb"@EXPECTED_RESULTS@:?\s*([A-Za-z_,\- \t]+)")
MARKER_SCAN_BYTES = 64 * 1024

AC, WA, TLE, RTE = (VERDICTS[name] for name in ("AC", "WA", "TLE", "RTE"))
PARTIALLY_ACCEPTED = "partially_accepted"
"""Legacy, for scored problems: AC with less than the full score (2025-09 says it with `score` instead)."""
UNDEFINED = Expectation("?", frozenset())
DISABLED = ".disabled"
"""A submission named `x.cc.disabled` is kept in the package but not run (BAPCtools' convention)."""

RESULT_NAMES: dict[str, frozenset[Verdict]] = {
    "ACCEPTED": AC,
    "CORRECT": AC,
    "WRONG_ANSWER": WA,
    "WRONG-ANSWER": WA,
    "NO-OUTPUT": WA,
    "NO_OUTPUT": WA,
    "TIME_LIMIT_EXCEEDED": TLE,
    "TIMELIMIT": TLE,
    "RUN_TIME_ERROR": RTE,
    "RUN-ERROR": RTE,
    "RUN_ERROR": RTE,
    "OUTPUT-LIMIT": RTE,
    "OUTPUT_LIMIT": RTE,
    "MEMORY_LIMIT_EXCEEDED": RTE,
    "COMPILER-ERROR": frozenset({Verdict.CE}),
    "COMPILER_ERROR": frozenset({Verdict.CE}),  # DOMjudge's
}
PYTHON2_SHEBANG = re.compile(rb"\A#!.*python2\b")


def package_references(root: Path, source_limit_bytes: int, *, legacy: bool) -> tuple[Reference, ...]:
    """Every submission under root/submissions/, in folder then natural order. Files in a folder that neither
    the specification nor submissions.yaml gives requirements for (`slow_accepted/`) are listed as skipped, as
    problemtools passes over them."""
    folder_root = root / SUBMISSIONS_FOLDER
    if not os.path.lexists(folder_root):
        return ()
    resolve_inside(folder_root, root, folder=True)
    config = SubmissionsConfig.read(root, folder_root, legacy=legacy)
    found: list[Reference] = []
    for folder in sorted(folder_root.iterdir(), key=lambda path: natural_key(path.name)):
        if folder.name.startswith(".") or not folder.is_dir():
            continue
        resolve_inside(folder, root, folder=True)
        for path in sorted(folder.iterdir(), key=lambda path: natural_key(path.name)):
            if path.name.startswith("."):
                continue
            expectation: Expectation | None
            if path.name.endswith(DISABLED):
                found.append(Reference(path, UNDEFINED, skipped=f"its name ends in {DISABLED}, which switches it off"))
                continue
            if folder.name == PARTIALLY_ACCEPTED:
                expectation, skipped = Expectation("PAC", AC, partial=True), ""
            else:
                expectation, skipped = config.expectation(PurePosixPath(folder.name, path.name))
            if expectation is None:
                skipped = f"{folder.name}/ is not a folder the specification defines, and submissions.yaml names none"
                found.append(Reference(path, UNDEFINED, skipped=skipped))
            elif skipped:
                found.append(Reference(path, expectation, skipped=skipped))
            else:
                entrypoint = config.entrypoint(PurePosixPath(folder.name, path.name))
                found.append(_reference(root, path, expectation, source_limit_bytes, entrypoint))
    return tuple(found)


def _reference(root: Path, path: Path, expectation: Expectation, limit: int, entrypoint: str | None) -> Reference:
    """The submission `path`; one linked to another file of the package is judged as that file (its real path,
    which judging reads without following links). A folder whose `entrypoint` (submissions.yaml) is not the file
    judge would run is skipped: judge picks a folder's main source by its own rule (languages/sources.py)."""
    listed = None
    if os.path.isdir(path):
        resolve_inside(path, root, folder=True)
    elif os.path.islink(path):
        path, listed = resolve_inside(path, root), path
    try:
        files = SourceFiles.read(path, limit)
    except Refused as refused:
        return Reference(path, expectation, skipped=refused.reason)
    except SubmissionError as error:  # a folder without one main source
        return Reference(path, expectation, skipped=str(error).removeprefix(f"{path}: "))
    head = files.text
    if entrypoint is not None and files.main != path and entrypoint not in (files.main.name, files.main.stem):
        return Reference(
            path,
            expectation,
            skipped=(
                f"submissions.yaml gives the entry point {entrypoint}; judge would run {files.main.name} of this folder"
            ),
        )
    try:
        detect_language(files.main)
    except SubmissionError:
        suffix = files.main.suffix or "extensionless"
        return Reference(path, expectation, skipped=f"no language judges {suffix} files here")
    if files.main.suffix == ".py" and PYTHON2_SHEBANG.match(head):
        return Reference(path, expectation, skipped="Python 2 (its #! line says so); judge runs Python 3 only")
    return Reference(path, expected_results(path, head) or expectation, listed=listed)


def expected_results(path: Path, source: bytes) -> Expectation | None:
    """The expectation an `@EXPECTED_RESULTS@:` line gives, or None without one; an unknown result is a SpecError."""
    match = MARKER.search(source[:MARKER_SCAN_BYTES])
    if match is None:
        return None
    names = [name.strip().upper() for name in match.group(1).decode().split(",") if name.strip()]
    verdicts: frozenset[Verdict] = frozenset()
    for name in names:
        if name not in RESULT_NAMES:
            raise SpecError(f"{path}: @EXPECTED_RESULTS@: unknown result {name!r}; use {', '.join(RESULT_NAMES)}")
        verdicts |= RESULT_NAMES[name]
    if not verdicts:
        raise SpecError(f"{path}: @EXPECTED_RESULTS@: names no result; use {', '.join(RESULT_NAMES)}")
    return Expectation(",".join(names), verdicts)
