"""A package's reference submissions: every file in `submissions/<folder>/`, expected to get what its folder
means in the specification and what `submissions/submissions.yaml` adds (submissions_yaml.py), unless an
`@EXPECTED_RESULTS@:` line in its files says otherwise (DOMjudge's marker, which packages use:
`@EXPECTED_RESULTS@: WRONG_ANSWER, TIME_LIMIT_EXCEEDED`). In a folder neither gives requirements for (DOMjudge's
`compiler_error/`, `no_output/`), the marker alone does.

The package's verdicts are coarser than ours: its WA covers our PE, and its RTE covers running out of memory
or output (our MLE and OLE), as problemtools judges them.
"""

from __future__ import annotations

import os
import re
from pathlib import Path, PurePosixPath

from judge.errors import SpecError, SubmissionError
from judge.intake import Refused, natural_key
from judge.languages.detection import detect_language
from judge.languages.sources import SourceFiles
from judge.problems.expectations import Expectation, Reference
from judge.problems.files import resolve_inside
from judge.problems.packages.submissions_yaml import VERDICTS, SubmissionsConfig
from judge.verdicts import Verdict

SUBMISSIONS_FOLDER = "submissions"
MARKER = re.compile(rb"@EXPECTED_RESULTS@:[ \t]*([A-Za-z_,\- \t]+)")  # with its colon: prose names the marker too
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
    # DOMjudge's name, with DOMjudge's meaning: it cuts output at its limit and lets the program run into the time
    # limit, so one that prints forever is TIMELIMIT there; judge stops it at the limit (OLE).
    "TIMELIMIT": TLE | {Verdict.OLE},
    "RUN_TIME_ERROR": RTE,
    "RUN-ERROR": RTE,
    "RUN_ERROR": RTE,
    "OUTPUT-LIMIT": RTE,
    "OUTPUT_LIMIT": RTE,
    "MEMORY_LIMIT_EXCEEDED": RTE,
    "COMPILER-ERROR": frozenset({Verdict.CE}),
    "COMPILER_ERROR": frozenset({Verdict.CE}),  # DOMjudge's
}
MANUAL_RESULTS = ("CHECK-MANUALLY", "CHECK_MANUALLY")
"""DOMjudge's result for a submission a person judges: listed as skipped."""
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
            relative = PurePosixPath(folder.name, path.name)
            if folder.name == PARTIALLY_ACCEPTED:
                expectation = Expectation("PAC", AC, partial=True)
            else:
                expectation = config.expectation(relative)
            found.append(_reference(root, path, expectation, source_limit_bytes, config.entrypoint(relative)))
    return tuple(found)


def _reference(
    root: Path, path: Path, expectation: Expectation | None, limit: int, entrypoint: str | None
) -> Reference:
    """The submission `path`; one linked to another file of the package is judged as that file (its real path,
    which judging reads without following links). A folder whose `entrypoint` (submissions.yaml) is not the file
    judge would run is skipped: judge picks a folder's main source by its own rule (languages/sources.py).
    `expectation` is None in a folder nothing gives requirements for: its marker must, else it is skipped."""
    listed = None
    if os.path.isdir(path):
        resolve_inside(path, root, folder=True)
    elif os.path.islink(path):
        path, listed = resolve_inside(path, root), path
    try:
        files = SourceFiles.read(path, limit)
    except Refused as refused:
        return Reference(path, expectation or UNDEFINED, skipped=refused.reason)
    except SubmissionError as error:  # a folder without one main source
        return Reference(path, expectation or UNDEFINED, skipped=str(error).removeprefix(f"{path}: "))
    head = files.text
    markers = [match for text in (head, *(text for _, text, _ in files.beside)) for match in markers_in(text)]
    if len(markers) > 1:
        return Reference(path, expectation or UNDEFINED, skipped="its files hold several @EXPECTED_RESULTS@ lines")
    if any(name in MANUAL_RESULTS for name in _names(markers)):
        return Reference(path, UNDEFINED, skipped="@EXPECTED_RESULTS@: CHECK-MANUALLY, which a person judges")
    marked = marker_expectation(path, markers[0]) if markers else None
    expectation = marked or expectation
    if expectation is None:
        folder = path.parent.name
        skipped = f"{folder}/ is not a folder the specification defines, and submissions.yaml names none"
        return Reference(path, UNDEFINED, skipped=skipped)
    main = files.main_path(path)
    if entrypoint is not None and files.main and entrypoint not in (main.name, main.stem):
        return Reference(
            path,
            expectation,
            skipped=f"submissions.yaml gives the entry point {entrypoint}; judge would run {main.name} of this folder",
        )
    try:
        detect_language(main)
    except SubmissionError:
        suffix = main.suffix or "extensionless"
        return Reference(path, expectation, skipped=f"no language judges {suffix} files here")
    if main.suffix == ".py" and PYTHON2_SHEBANG.match(head):
        return Reference(path, expectation, skipped="Python 2 (its #! line says so); judge runs Python 3 only")
    return Reference(path, expectation, listed=listed)


def markers_in(source: bytes) -> list[bytes]:
    """The results of each `@EXPECTED_RESULTS@:` line of one file (its first 64 KiB)."""
    return [match.group(1) for match in MARKER.finditer(source[:MARKER_SCAN_BYTES])]


def _names(markers: list[bytes]) -> list[str]:
    return [name.strip().upper() for marker in markers for name in marker.decode().split(",") if name.strip()]


def marker_expectation(path: Path, results: bytes) -> Expectation:
    """The expectation of one marker's results; an unknown result, or none, is a SpecError."""
    names = _names([results])
    verdicts: frozenset[Verdict] = frozenset()
    for name in names:
        if name not in RESULT_NAMES:
            raise SpecError(f"{path}: @EXPECTED_RESULTS@: unknown result {name!r}; use {', '.join(RESULT_NAMES)}")
        verdicts |= RESULT_NAMES[name]
    if not verdicts:
        raise SpecError(f"{path}: @EXPECTED_RESULTS@: names no result; use {', '.join(RESULT_NAMES)}")
    return Expectation(",".join(names), verdicts)
