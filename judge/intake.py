"""Reading a file that someone else put there (a submission, a problem's spec): a regular file only, never past a cap;
and listing a folder someone else filled (a class folder, the problems folder) the same way every time.

A path a student controls can name anything: a symbolic link to /etc/shadow, to /proc/self/environ or to another
student's file; a FIFO that blocks its reader forever; /dev/zero, which never ends; a 200 MB file. So a source is
opened without following a link (O_NOFOLLOW), without waiting for a writer (O_NONBLOCK) and without becoming a
controlling terminal (O_NOCTTY); it is refused unless the descriptor's own fstat says it is a regular file (so
swapping the file between a check and the open gains nothing); and at most `limit + 1` bytes are read, one byte
past the cap being enough to know that a file is over it. An lstat before the open keeps a device from being opened
at all.

Inside a folder (`inside=`, the class folder of `judge grade`) every component below that folder is opened the
same way, one directory at a time relative to the previous one (openat), so no symbolic link on the way, even one
swapped in during the read, can lead out of it.

A folder is listed by `visible_entries`: hidden entries skipped, links not followed, in natural order (`2` before
`10`, `natural_key`), so every report lists a class or a problems folder the same way on every run.
"""

from __future__ import annotations

import errno
import os
import re
import stat
from collections.abc import Callable
from pathlib import Path
from typing import Any

from judge.errors import SubmissionError
from judge.inert import for_terminal

_OPEN_FILE = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_NOCTTY | os.O_CLOEXEC
_OPEN_FOLDER = os.O_RDONLY | os.O_NOFOLLOW | os.O_DIRECTORY | os.O_CLOEXEC
_CHUNK = 1 << 20

LINK_REASON = "is a symbolic link"
_KINDS: tuple[tuple[Callable[[int], bool], str], ...] = (
    (stat.S_ISLNK, LINK_REASON),
    (stat.S_ISFIFO, "is a FIFO"),
    (stat.S_ISCHR, "is a device"),
    (stat.S_ISBLK, "is a device"),
    (stat.S_ISSOCK, "is a socket"),
    (stat.S_ISDIR, "is a directory"),
)
_KIND_REASONS = frozenset(reason for _, reason in _KINDS) | {"is not a regular file"}


class Refused(SubmissionError):
    """A file that is not read: `reason` is the bare fact (`is a FIFO`), `str()` the CLI's one line with the path."""

    def __init__(self, path: Path, reason: str) -> None:
        super().__init__(f"{for_terminal(os.fspath(path))}: {reason}{_hint(reason)}")
        self.path = path
        self.reason = reason


def _hint(reason: str) -> str:
    """The fix, for the CLI's line: what is read, or where the cap is set."""
    if reason.startswith("is larger than"):
        return "; shorten it, or raise the cap (source_limit in problem.yaml, or --source-limit)"
    if reason in _KIND_REASONS or reason.startswith("is reached through"):
        return "; give the regular file itself"
    return ""


def kind_refusal(mode: int) -> str | None:
    """Why a file of this type (an `st_mode`, from lstat or fstat) is not read; None for a regular file."""
    for is_kind, reason in _KINDS:
        if is_kind(mode):
            return reason
    return None if stat.S_ISREG(mode) else "is not a regular file"


def size_refusal(size: int, limit_bytes: int | None, what: str = "source") -> str | None:
    """Why a file of `size` bytes is not read under the cap; None when it fits (or there is no cap)."""
    if limit_bytes is None or size <= limit_bytes:
        return None
    shown = f"{limit_bytes // 1024} KiB" if limit_bytes % 1024 == 0 else f"{limit_bytes} bytes"
    return f"is larger than the {shown} {what} limit"


def read_source(path: Path, limit_bytes: int | None, *, inside: Path | None = None, what: str = "source") -> bytes:
    """The bytes of the regular file `path`, at most `limit_bytes` of them (None: no cap); raises `Refused`.

    With `inside`, `path` must lie below that folder and no component between them may be a symbolic link.
    `what` names the cap in the refusal: `is larger than the 64 KiB source limit`.
    """
    descriptor = _open(path, inside)
    try:
        status = os.fstat(descriptor)
        reason = kind_refusal(status.st_mode) or size_refusal(status.st_size, limit_bytes, what)
        if reason:
            raise Refused(path, reason)
        content = _read_at_most(descriptor, None if limit_bytes is None else limit_bytes + 1)
    except OSError as error:
        raise Refused(path, f"cannot be read: {error.strerror}") from None
    finally:
        os.close(descriptor)
    # A file that grew after the fstat (or one whose size the kernel does not report) is caught here.
    reason = size_refusal(len(content), limit_bytes, what)
    if reason:
        raise Refused(path, reason)
    return content


def _open(path: Path, inside: Path | None) -> int:
    """A descriptor for `path` opened with O_NOFOLLOW, after an lstat that refuses anything but a regular file."""
    if inside is None:
        return _open_file(path, path, None)
    try:
        parts = path.relative_to(inside).parts
    except ValueError:
        raise Refused(path, f"is not inside {for_terminal(os.fspath(inside))}") from None
    if not parts or any(part in (".", "..") for part in parts):
        raise Refused(path, f"is not inside {for_terminal(os.fspath(inside))}")
    try:
        folder = os.open(inside, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)  # the folder itself, as it was named
    except OSError as error:
        raise Refused(path, f"cannot be read: {error.strerror}") from None
    try:
        for part in parts[:-1]:
            try:
                inner = os.open(part, _OPEN_FOLDER, dir_fd=folder)
            except OSError as error:
                reason = (
                    "is reached through a symbolic link"
                    if error.errno in (errno.ELOOP, errno.ENOTDIR)
                    else f"cannot be read: {error.strerror}"
                )
                raise Refused(path, reason) from None
            os.close(folder)
            folder = inner
        return _open_file(path, Path(parts[-1]), folder)
    finally:
        os.close(folder)


def _open_file(path: Path, name: Path, folder: int | None) -> int:
    try:
        reason = kind_refusal(os.stat(name, dir_fd=folder, follow_symlinks=False).st_mode)
        if reason:
            raise Refused(path, reason)
        return os.open(name, _OPEN_FILE, dir_fd=folder)
    except OSError as error:
        if error.errno == errno.ELOOP:  # it became a link between the lstat and the open
            raise Refused(path, LINK_REASON) from None
        if error.errno == errno.ENOENT:
            raise Refused(path, "does not exist") from None
        raise Refused(path, f"cannot be read: {error.strerror}") from None


def _read_at_most(descriptor: int, count: int | None) -> bytes:
    """Read until end of file or until `count` bytes (None: no limit), whichever comes first."""
    chunks: list[bytes] = []
    remaining = count
    while remaining is None or remaining > 0:
        chunk = os.read(descriptor, _CHUNK if remaining is None else min(_CHUNK, remaining))
        if not chunk:
            break
        chunks.append(chunk)
        if remaining is not None:
            remaining -= len(chunk)
    return b"".join(chunks)


def natural_key(name: str) -> list[Any]:
    """Sort key that puts `2` before `10`: digits compare as numbers, the rest as text."""
    return [int(part) if part.isdigit() else part for part in re.split(r"(\d+)", name)]


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
