"""A package's reference submissions: every file in `submissions/<folder>/`, expected to get what its folder
means in the specification, unless an `@EXPECTED_RESULTS@:` line in the file says otherwise (DOMjudge's marker,
which packages use: `@EXPECTED_RESULTS@: WRONG_ANSWER, TIME_LIMIT_EXCEEDED`).

The package's verdicts are coarser than ours: its WA covers our PE, and its RTE covers running out of memory
or output (our MLE and OLE), as problemtools judges them.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from judge.errors import SpecError, SubmissionError
from judge.intake import Refused, read_source
from judge.languages.detection import detect_language
from judge.problems.expectations import Expectation, Reference
from judge.problems.files import resolve_inside
from judge.problems.model import natural_key
from judge.verdicts import Verdict

SUBMISSIONS_FOLDER = "submissions"
MARKER = re.compile(rb"@EXPECTED_RESULTS@:?\s*([A-Za-z_,\- \t]+)")
MARKER_SCAN_BYTES = 64 * 1024

AC = frozenset({Verdict.AC})
WA = frozenset({Verdict.WA, Verdict.PE})
TLE = frozenset({Verdict.TLE})
RTE = frozenset({Verdict.RE, Verdict.MLE, Verdict.OLE})

FOLDERS: dict[str, Expectation] = {
    "accepted": Expectation("AC", AC),
    "partially_accepted": Expectation("PAC", AC, partial=True),
    "wrong_answer": Expectation("WA", WA),
    "time_limit_exceeded": Expectation("TLE", TLE),
    "run_time_error": Expectation("RTE", RTE),
    "rejected": Expectation("rejected", WA | TLE | RTE),
    "brute_force": Expectation("brute_force", TLE | RTE),
}
"""The specification's folders (partially_accepted: legacy, for scored problems: AC with less than full score)."""
UNDEFINED = Expectation("?", frozenset())

RESULT_NAMES: dict[str, frozenset[Verdict]] = {
    "ACCEPTED": AC, "CORRECT": AC,
    "WRONG_ANSWER": WA, "WRONG-ANSWER": WA, "NO-OUTPUT": WA, "NO_OUTPUT": WA,
    "TIME_LIMIT_EXCEEDED": TLE, "TIMELIMIT": TLE,
    "RUN_TIME_ERROR": RTE, "RUN-ERROR": RTE, "RUN_ERROR": RTE, "OUTPUT-LIMIT": RTE, "OUTPUT_LIMIT": RTE,
    "MEMORY_LIMIT_EXCEEDED": RTE,
}
PYTHON2_SHEBANG = re.compile(rb"\A#!.*python2\b")


def package_references(root: Path, source_limit_bytes: int) -> tuple[Reference, ...]:
    """Every submission under root/submissions/, in folder then natural order. Files in a folder the
    specification does not define (`slow_accepted/`, or one a submissions.yaml would define) are listed as
    skipped, as problemtools passes over them."""
    folder_root = root / SUBMISSIONS_FOLDER
    if not os.path.lexists(folder_root):
        return ()
    resolve_inside(folder_root, root, folder=True)
    found: list[Reference] = []
    for folder in sorted(folder_root.iterdir(), key=lambda path: natural_key(path.name)):
        if folder.name.startswith(".") or not folder.is_dir():
            continue
        resolve_inside(folder, root, folder=True)
        expectation = FOLDERS.get(folder.name)
        for path in sorted(folder.iterdir(), key=lambda path: natural_key(path.name)):
            if path.name.startswith("."):
                continue
            if expectation is None:
                skipped = f"{folder.name}/ is not a folder the specification defines"
                found.append(Reference(path, UNDEFINED, skipped=skipped))
            else:
                found.append(_reference(root, path, expectation, source_limit_bytes))
    return tuple(found)


def _reference(root: Path, path: Path, expectation: Expectation, limit: int) -> Reference:
    """The submission `path`; one linked to another file of the package is judged as that file (its real path,
    which judging reads without following links)."""
    if os.path.isdir(path):
        resolve_inside(path, root, folder=True)
        return Reference(path, expectation, skipped="a submission of several files (a folder) is not supported")
    if os.path.islink(path):
        path = resolve_inside(path, root)
    try:
        head = read_source(path, limit)
    except Refused as refused:
        return Reference(path, expectation, skipped=refused.reason)
    try:
        detect_language(path)
    except SubmissionError:
        return Reference(path, expectation, skipped=f"no language judges {path.suffix or 'extensionless'} files here")
    if path.suffix == ".py" and PYTHON2_SHEBANG.match(head):
        return Reference(path, expectation, skipped="Python 2 (its #! line says so); judge runs Python 3 only")
    return Reference(path, expected_results(path, head) or expectation)


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
