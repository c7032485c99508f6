"""A folder the judge writes its results into, as a shared resource: one writer at a time, files replaced whole,
and a full disk told as one line in the words of the command that writes there.

Such folders: `judge grade`'s --out (results.sqlite and the gradebook views), `judge similarity`'s --out, and
`judge serve`'s data folder (its database, and the teacher's exports in it).

One writer at a time: two runs on the same folder would both judge every missing pair (each reads the results
once, at its start) and race to write the same files. A writer holds an exclusive `flock` on a lock file in the
folder (`one_writer_at_a_time`) for as long as it writes there, with its pid in the file. A second one is refused
at once rather than made to wait: a teacher who started the same command twice by accident wants a clear line
now, not a terminal that looks hung. The lock belongs to the open file, which the kernel closes however the
process ends (SIGKILL included), so a dead writer never keeps a folder locked; the file is opened close-on-exec
(and never through a link), and the judge's worker processes are spawned (exec), never forked, so none inherits
it. Under Dask the lock is taken by the client process, the only one that writes the folder.

A full disk (or quota): every write into the folder goes through `writing_into`, which turns ENOSPC, EDQUOT and
SQLite's SQLITE_FULL (and its I/O errors) into a `FolderUnwritable`: a failure of the judge's machine, not of a
person's input, and not a bug (exit 3). Its one line is worded by the caller (`FolderWords`: what the folder is to
its reader, what to do once there is room), and a caller that writes through a writer below it (serve's export
through the gradebook views) words the failure again, for its own folder. SQLite commits what it committed, so
the same command after freeing space carries on where it stopped.
"""

from __future__ import annotations

import errno
import fcntl
import os
import sqlite3
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from msgspec import Struct

from judge.errors import JudgeError, JudgeFailure

_DISK_FULL_ERRNOS = frozenset({errno.ENOSPC, errno.EDQUOT})
_SQLITE_IOERR, _SQLITE_FULL = 10, 13
"""SQLite's primary result codes for "disk I/O error" and "database or disk is full" (an extended code, as
`sqlite_errorcode` gives, keeps its primary code in its low byte)."""
_OPEN_LOCK = os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC


class FolderWords(Struct, frozen=True):
    """How a command tells a person that its folder could not be written."""

    folder: str
    """What the folder is to its reader: `the gradebook folder`."""
    again: str
    """What to do once there is room: `run the same command again to resume`."""


class FolderUnwritable(JudgeFailure):
    """Writing into `folder` failed for the machine's sake: a full disk or quota (`full`), else an I/O error SQLite
    met there; `why` is what the system said. Its message is the caller's one line (`words`)."""

    def __init__(self, folder: Path, why: str, words: FolderWords, *, full: bool) -> None:
        if full:
            line = f"{words.folder} {folder} is full: {why}; free space and {words.again}"
        else:
            line = (
                f"{words.folder} {folder} could not be written: {why}; check its disk (a quota, a failing device) "
                f"and {words.again}"
            )
        super().__init__(line)
        self.folder = folder
        self.why = why
        self.full = full

    def told(self, folder: Path, words: FolderWords) -> FolderUnwritable:
        """The same failure in another caller's words, about the folder it writes into."""
        return FolderUnwritable(folder, self.why, words, full=self.full)


def write_failure(error: BaseException, folder: Path, words: FolderWords) -> FolderUnwritable | None:
    """The failure for `error` raised writing into `folder` when the machine is to blame: a full disk or quota
    (ENOSPC, EDQUOT, SQLITE_FULL), or an I/O error SQLite met there; None for any other error.

    SQLite reports some full disks as I/O errors: creating its shared-memory file on a full disk is
    SQLITE_IOERR_SHMSIZE, and a write refused for quota is SQLITE_IOERR_WRITE. Such an error on a folder with no
    free block is told as full; otherwise it is told as an I/O error, never as a bad database file.
    """
    if isinstance(error, OSError):
        if error.errno not in _DISK_FULL_ERRNOS:
            return None
        where = f" ({Path(error.filename).name})" if error.filename else ""
        return FolderUnwritable(folder, f"{error.strerror or os.strerror(error.errno)}{where}", words, full=True)
    code = getattr(error, "sqlite_errorcode", None)
    if not isinstance(error, sqlite3.Error) or code is None or code & 0xFF not in (_SQLITE_FULL, _SQLITE_IOERR):
        return None
    why = f"{error} ({error.sqlite_errorname})"
    return FolderUnwritable(folder, why, words, full=code & 0xFF == _SQLITE_FULL or _no_free_block(folder))


def _no_free_block(folder: Path) -> bool:
    try:
        return os.statvfs(folder).f_bavail == 0
    except OSError:
        return False


@contextmanager
def writing_into(folder: Path, words: FolderWords) -> Iterator[None]:
    """Inside, an error writing into `folder` that `write_failure` tells becomes that `FolderUnwritable` (exit 3),
    and one a writer below already told is told again in `words`."""
    try:
        yield
    except FolderUnwritable as told_below:
        raise told_below.told(folder, words) from None
    except (OSError, sqlite3.Error) as error:
        failure = write_failure(error, folder, words)
        if failure is None:
            raise
        raise failure from None


def write_atomically(path: Path, text: str, words: FolderWords) -> None:
    """Write through a temporary file and rename, so a reader never sees half a file. A full disk is the one line
    in `words`, and the failed write removes its temporary file rather than leave it taking the space."""
    partial_path = path.with_name(f".{path.name}.partial")
    with writing_into(path.parent, words):
        try:
            partial_path.write_text(text, encoding="utf-8")
        except OSError:
            partial_path.unlink(missing_ok=True)
            raise
        os.replace(partial_path, path)


@contextmanager
def one_writer_at_a_time(
    folder: Path, lock_name: str, words: FolderWords, busy: Callable[[str], str]
) -> Iterator[None]:
    """Hold `folder`'s lock (the file `lock_name` in it, made when missing) while inside. Another holder refuses
    it at once: a `JudgeError` (exit 2) with the line `busy(holder)`, where `holder` is ` (pid N)` once the other
    one has written its pid, else empty. An error opening the lock file that is not a full disk is raised as is."""
    with writing_into(folder, words):
        folder.mkdir(parents=True, exist_ok=True)
        descriptor = os.open(folder / lock_name, _OPEN_LOCK, 0o600)
    try:
        try:
            fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise JudgeError(busy(_holder(descriptor))) from None
        with writing_into(folder, words):
            os.ftruncate(descriptor, 0)
            os.pwrite(descriptor, f"{os.getpid()}\n".encode(), 0)
        yield
    finally:
        os.close(descriptor)  # closing the file releases the lock


def _holder(descriptor: int) -> str:
    """` (pid N)` of the lock's holder when it has written it yet, else empty."""
    holder = os.pread(descriptor, 32, 0).decode("ascii", "replace").strip()
    return f" (pid {holder})" if holder.isdigit() else ""
