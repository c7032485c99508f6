"""A problem folder's files, whatever its layout (ours or a problem package): the one place that decides whether
the judge may read a path of a problem.

A problem folder is not trusted, and the judge reads it as root. A symbolic link is followed only when its
target, fully resolved, lies inside the problem folder: problem packages link one group's tests into another,
and the specification allows links whose targets stay in the package (problemtools refuses the others). A link
leading out of the folder, to nothing, or to a FIFO, a device or a socket is a SpecError naming the file and the
fix, before anything is opened; reading then goes to the resolved path, one folder at a time from the problem
folder without following any link (judge.intake), so a link swapped in after the check gains nothing.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path
from typing import Any

from judge.errors import SpecError
from judge.intake import LINK_REASON, Refused, kind_refusal, read_source
from judge.problems.model import SPEC_FILE

SPEC_LIMIT_BYTES = 64 * 1024
FIX = "a problem's files must be regular files inside its folder"
FOLDER_FIX = "make it a folder inside the problem folder"
THROUGH_LINK = "is reached through"
"""How judge.intake refuses a path with a symbolic link before its last component."""


def resolve_inside(path: Path, root: Path, *, folder: bool = False) -> Path:
    """The real path of `path` (every link on the way resolved), checked to lie inside the problem folder `root`
    and to be a regular file (with `folder`, a folder); else a SpecError naming `path`."""
    real_root = Path(os.path.realpath(root))
    target = Path(os.path.realpath(path))
    if real_root not in target.parents and not (folder and target == real_root):
        raise SpecError(
            f"{path}: a symbolic link leads out of the problem folder (to {target}); put the file "
            f"itself in the folder, or link only to files inside it"
        )
    try:
        mode = os.stat(target, follow_symlinks=False).st_mode
    except OSError as error:
        through = "is a symbolic link to a missing file" if os.path.islink(path) else "cannot be read"
        raise SpecError(f"{path}: {through} ({error.strerror}); {FIX}") from None
    if folder and stat.S_ISDIR(mode):
        return target
    if folder:
        raise SpecError(f"{path}: is not a folder; {FOLDER_FIX}")
    reason = kind_refusal(mode)
    if reason:
        raise SpecError(f"{path}: {reason}; {FIX}")
    return target


def file_inside(path: Path, real_folder: Path, root: Path) -> Path:
    """`resolve_inside` for a file of a folder whose real path `real_folder` was resolved and checked already (a
    folder of tests): one lstat when the file is not a link, where resolving costs one per component of the
    whole path (about 2 µs against 30 to 50 µs a file, measured)."""
    try:
        mode = os.lstat(path).st_mode
    except OSError as error:
        raise SpecError(f"{path}: cannot be read ({error.strerror}); {FIX}") from None
    if stat.S_ISLNK(mode):
        return resolve_inside(path, root)
    reason = kind_refusal(mode)
    if reason:
        raise SpecError(f"{path}: {reason}; {FIX}")
    return real_folder / path.name


def read_problem_file(path: Path, root: Path, limit_bytes: int | None, *, what: str = "file", fix: str = FIX) -> bytes:
    """The bytes of the problem file `path` below `root` (at most `limit_bytes`), opened one folder at a time
    from `root` without following any link (judge.intake); a path with a link on the way is resolved by
    `resolve_inside` and its target read the same way. Any refusal is a SpecError naming `path`, ending with
    `fix`. (Resolving first for every file would cost 30 to 50 µs a file; this costs it only for links.)"""
    try:
        return read_source(path, limit_bytes, inside=root, what=what)
    except Refused as refused:
        if refused.reason != LINK_REASON and not refused.reason.startswith(THROUGH_LINK):
            raise SpecError(f"{path}: {refused.reason}; {fix}") from None
    target = resolve_inside(path, root)
    try:
        return read_source(target, limit_bytes, inside=Path(os.path.realpath(root)), what=what)
    except Refused as refused:
        raise SpecError(f"{path}: {refused.reason}; {fix}") from None


def program_files(path: Path, root: Path) -> tuple[Path, ...]:
    """A problem program (a checker, an input or output validator) as the files the judge reads and copies into
    its box: the file `path` itself, or each file directly in the folder `path`, all checked by `resolve_inside`
    (the paths are returned as named, so a program keeps its file names). Subfolders are neither read nor
    copied; one linked out of the problem folder is refused all the same."""
    if not os.path.isdir(path):
        resolve_inside(path, root)
        return (path,)
    resolve_inside(path, root, folder=True)
    files = []
    for entry in sorted(os.scandir(path), key=lambda entry: entry.name):
        if entry.name.startswith("."):
            continue
        if entry.is_dir():
            resolve_inside(Path(entry.path), root, folder=True)
        else:
            files.append(Path(entry.path))
            resolve_inside(files[-1], root)
    return tuple(files)


def read_spec_mapping(
    spec_path: Path, keys_hint: str, *, empty_ok: bool = False, root: Path | None = None
) -> dict[Any, Any]:
    """A problem.yaml (ours or a problem package's; or a group's settings file, inside the problem folder `root`)
    as a mapping, read safely: a regular file of at most 64 KiB, no aliases; any problem is a SpecError naming the
    file (and the line, for YAML errors). With `empty_ok`, an empty file is an empty mapping (a legacy package's
    problem.yaml may leave every key at its default)."""
    from judge.problems.schema import parse_mapping  # noqa: PLC0415 -- PyYAML only where a package is read

    text = read_spec_bytes(spec_path, root or spec_path.parent).decode("utf-8")
    return parse_mapping(text, spec_path, keys_hint, empty_ok=empty_ok)


def read_spec_bytes(spec_path: Path, root: Path) -> bytes:
    """A problem.yaml's bytes: a regular file (in the problem folder `root`) of at most 64 KiB in UTF-8, else a
    SpecError naming it."""
    data = read_problem_file(
        spec_path,
        root,
        SPEC_LIMIT_BYTES,
        what=SPEC_FILE,
        fix=f"it must be a regular file of at most {SPEC_LIMIT_BYTES // 1024} KiB",
    )
    try:
        data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise SpecError(f"{spec_path}: cannot read: {error}") from None
    return data
