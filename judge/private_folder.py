"""A folder only the account running the judge may touch: `judge serve`'s data folder (the teacher's secret, the
session key, every password hash and source) and `judge cluster`'s folder (the key that runs code on every worker).

Why: the judge often runs as root on a machine with other accounts. A folder another account made, or may write
in, lets that account choose the secrets the judge adopts, or plant a link through which the judge writes over a
file of that account's choosing. So a folder is used only when the judge's own account owns it and everything in
it, no other account may write in it, nor in a folder above it unless that one is sticky as /tmp is, no folder
above it is another account's but root's (else the folder could be renamed away and another put in its place
while the judge runs), and nothing in it is a link, a FIFO or a device.
A file written there goes through a partial file created in the folder with O_EXCL|O_NOFOLLOW (tempfile.mkstemp:
a name planted beforehand is never written through) and renamed over the old one (a rename replaces a link, it
never follows it).

`claim_private_folder` is for a folder the judge keeps (serve's): made 0700 when missing; one of this account's
that is merely readable by others (made before this rule, under umask 022) is tightened to 0700, its files to
0600, so it keeps working. `check_private_folder` changes nothing: a cluster folder may be a read-only copy, its
certificates are public, and cluster/files.py refuses a key that others may read.
"""

from __future__ import annotations

import os
import pwd
import stat
import tempfile
from collections.abc import Iterator
from pathlib import Path

from judge.errors import JudgeError
from judge.intake import Refused, kind_refusal, read_source

OTHERS = stat.S_IRWXG | stat.S_IRWXO
OTHERS_WRITE = stat.S_IWGRP | stat.S_IWOTH


def claim_private_folder(folder: Path, fix: str) -> None:
    """Make `folder` (mode 0700) or check it is this account's alone, tightening what others may only read;
    a JudgeError ending with `fix` otherwise."""
    for path in reversed((folder, *folder.parents)):  # from the top: a missing folder above is 0755, not 0777
        if not os.path.lexists(path):
            try:
                os.mkdir(path, 0o700 if path == folder else 0o755)
            except FileExistsError:
                pass
            except OSError as error:
                raise JudgeError(f"{path}: cannot create it ({error.strerror}); {fix}") from None
    for path, mode in _checked(folder, fix):
        if mode & OTHERS:
            path.chmod(stat.S_IMODE(mode) & ~OTHERS)  # lstat said it is no link, and nobody else can swap one in


def check_private_folder(folder: Path, fix: str) -> None:
    """Refuse (a JudgeError ending with `fix`) a `folder` that is not this account's alone; change nothing."""
    _checked(folder, fix)


def write_private_file(path: Path, content: bytes) -> None:
    """Replace `path` (in a checked folder) whole with `content`, readable by its owner only."""
    descriptor, partial = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".partial", dir=path.parent)
    try:
        with os.fdopen(descriptor, "wb") as file:
            file.write(content)
            file.flush()
            os.fsync(file.fileno())
        os.replace(partial, path)
    except BaseException:
        Path(partial).unlink(missing_ok=True)
        raise


def read_private_file(path: Path, fix: str) -> bytes | None:
    """The bytes of the regular file `path` (in a checked folder), never through a link; None when missing."""
    try:
        return read_source(path, None)
    except Refused as refused:
        if refused.reason == "does not exist":
            return None
        raise JudgeError(f"{path}: {refused.reason}; {fix}") from None


def create_private_file(path: Path) -> None:
    """Create `path` empty, readable by its owner only, unless it exists (SQLite gives a database's -wal and -shm
    files the mode of the database file, so creating that first makes all three private)."""
    try:
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600))
    except FileExistsError:
        pass


def _checked(folder: Path, fix: str) -> list[tuple[Path, int]]:
    """`folder` and everything in it, each with its mode, once all are known to be this account's alone."""
    me = os.geteuid()
    try:
        status = os.lstat(folder)
    except FileNotFoundError:
        raise JudgeError(f"{folder}: no such folder; {fix}") from None
    except OSError as error:
        raise JudgeError(f"{folder}: cannot read it ({error.strerror}); {fix}") from None
    if not stat.S_ISDIR(status.st_mode) and not stat.S_ISLNK(status.st_mode):
        raise JudgeError(f"{folder}: not a folder; {fix}")
    reason = _refusal(folder, status, me) or _open_ancestor(folder)
    if reason:
        raise JudgeError(f"{reason}; {fix}")
    checked = [(folder, status.st_mode)]
    try:
        for path, status in _entries(folder):
            reason = _refusal(path, status, me)
            if reason:
                raise JudgeError(f"{reason}; {fix}")
            checked.append((path, status.st_mode))
    except OSError as error:
        raise JudgeError(f"{folder}: cannot read it ({error.strerror}); {fix}") from None
    return checked


def _refusal(path: Path, status: os.stat_result, me: int) -> str | None:
    """Why `path` (its lstat `status`) may not be in a folder that is this account's alone, or None."""
    if stat.S_ISLNK(status.st_mode):
        return f"{path}: a symbolic link, which the judge never follows here"
    kind = None if stat.S_ISDIR(status.st_mode) else kind_refusal(status.st_mode)
    if kind:
        return f"{path}: {kind}, which the judge never made here"
    if status.st_uid != me:
        return (
            f"{path}: owned by {_account(status.st_uid)}, not by {_account(me)} that runs the judge (so it could "
            "hold that account's own secrets or links)"
        )
    if status.st_mode & OTHERS_WRITE:
        return f"{path}: other accounts may write in it (mode {stat.S_IMODE(status.st_mode):04o})"
    return None


def _open_ancestor(folder: Path) -> str | None:
    """Why a folder above `folder` lets another account replace it, or None: one that other accounts may write in
    (unless it is sticky, as /tmp is), or that another account owns (its owner may rename our folder away and put
    its own in its place while the judge runs, which then opens the database by its path). Root's folders and this
    account's own are fine."""
    me = os.geteuid()
    parent = Path(os.path.realpath(folder.parent))
    for ancestor in (parent, *parent.parents):
        status = os.stat(ancestor)
        if status.st_uid not in (0, me):
            return (
                f"{ancestor}: owned by {_account(status.st_uid)}, a folder above {folder}, so that account could put "
                f"a folder of its own in its place; keep the folder under one that {_account(me)} or root owns"
            )
        mode = status.st_mode
        if mode & OTHERS_WRITE and not mode & stat.S_ISVTX:
            return (
                f"{ancestor}: other accounts may write in this folder above {folder} (mode {stat.S_IMODE(mode):04o},"
                " not sticky as /tmp is), so they could put a folder of their own in its place"
            )
    return None


def _entries(folder: Path) -> Iterator[tuple[Path, os.stat_result]]:
    """Everything below `folder` with its lstat, a folder before its contents; no link is followed. An entry that
    vanishes meanwhile (a partial file renamed, another server's export) is skipped."""
    try:
        entries = list(os.scandir(folder))
    except FileNotFoundError:
        return
    for entry in sorted(entries, key=lambda entry: entry.name):
        try:
            status = entry.stat(follow_symlinks=False)
        except FileNotFoundError:
            continue
        yield Path(entry.path), status
        if stat.S_ISDIR(status.st_mode):
            yield from _entries(Path(entry.path))


def _account(uid: int) -> str:
    try:
        return f"{pwd.getpwuid(uid).pw_name} (uid {uid})"
    except KeyError:
        return f"uid {uid}"
