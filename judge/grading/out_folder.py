"""The `--out` folder of `judge grade` as a shared resource: one run at a time, and a full disk told as one line.

One run at a time: two runs on the same folder would both judge every missing pair (each reads the store once, at
its start) and race to write the gradebook. A run holds an exclusive `flock` on `.grade.lock` in the folder from
opening its store to writing its last view. The second run is refused at once rather than made to wait: a teacher
who started the same command twice by accident wants a clear line now, not a terminal that looks hung, and after
the first run ends, running the command again judges only what is left. The lock belongs to the open file, which
the kernel closes however the process ends (SIGKILL included), so a dead run never keeps a folder locked; the file
is opened close-on-exec, and the judge's worker processes are spawned (exec), never forked, so none inherits it.
Under Dask the lock is taken by the client process, the only one that writes the folder.

A full disk (or quota): every write into the folder (results.sqlite, the gradebook views, the lock file) goes
through `writing_into`, which turns ENOSPC, EDQUOT and SQLite's SQLITE_FULL (and its I/O errors) into one line
naming the folder: a failure of the judge's machine, not of a student, and not a bug (exit 3). The store commits one
pair per transaction, so what was committed stays, the failed transaction is rolled back when the store closes, and
the same command after freeing space judges the rest.
"""

from __future__ import annotations

import errno
import fcntl
import os
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from judge.errors import JudgeError, JudgeFailure

LOCK_NAME = ".grade.lock"
_DISK_FULL_ERRNOS = frozenset({errno.ENOSPC, errno.EDQUOT})
_SQLITE_IOERR, _SQLITE_FULL = 10, 13
"""SQLite's primary result codes for "disk I/O error" and "database or disk is full" (an extended code, as
`sqlite_errorcode` gives, keeps its primary code in its low byte)."""


def full_line(out_dir: Path, why: str) -> str:
    """The one line for a full `out_dir`."""
    return f"the gradebook folder {out_dir} is full: {why}; free space and run the same command again to resume"


def write_failure(error: BaseException, out_dir: Path) -> JudgeFailure | None:
    """The one-line failure for `error` raised writing into `out_dir` when the machine is to blame: a full disk or
    quota (ENOSPC, EDQUOT, SQLITE_FULL), or an I/O error SQLite met there; None for any other error.

    SQLite reports some full disks as I/O errors: creating its shared-memory file on a full disk is
    SQLITE_IOERR_SHMSIZE, and a write refused for quota is SQLITE_IOERR_WRITE. Such an error on a folder with no
    free block is told as full; otherwise it is told as an I/O error, never as a bad database file.
    """
    if isinstance(error, OSError):
        if error.errno not in _DISK_FULL_ERRNOS:
            return None
        where = f" ({Path(error.filename).name})" if error.filename else ""
        return JudgeFailure(full_line(out_dir, f"{error.strerror or os.strerror(error.errno)}{where}"))
    code = getattr(error, "sqlite_errorcode", None)
    if not isinstance(error, sqlite3.Error) or code is None or code & 0xFF not in (_SQLITE_FULL, _SQLITE_IOERR):
        return None
    why = f"{error} ({error.sqlite_errorname})"
    if code & 0xFF == _SQLITE_FULL or _no_free_block(out_dir):
        return JudgeFailure(full_line(out_dir, why))
    return JudgeFailure(
        f"the gradebook folder {out_dir} could not be written: {why}; check its disk (a quota, "
        f"a failing device) and run the same command again to resume"
    )


def _no_free_block(out_dir: Path) -> bool:
    try:
        return os.statvfs(out_dir).f_bavail == 0
    except OSError:
        return False


@contextmanager
def writing_into(out_dir: Path) -> Iterator[None]:
    """Inside, an error writing into `out_dir` that `write_failure` tells becomes that `JudgeFailure` (exit 3)."""
    try:
        yield
    except (OSError, sqlite3.Error) as error:
        failure = write_failure(error, out_dir)
        if failure is None:
            raise
        raise failure from None


@contextmanager
def one_run_at_a_time(out_dir: Path) -> Iterator[None]:
    """Hold `out_dir`'s lock while inside; raise `JudgeError` (exit 2) at once if another run holds it."""
    with writing_into(out_dir):
        out_dir.mkdir(parents=True, exist_ok=True)
        descriptor = os.open(out_dir / LOCK_NAME, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
    try:
        try:
            fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise JudgeError(_busy_line(out_dir, descriptor)) from None
        with writing_into(out_dir):
            os.ftruncate(descriptor, 0)
            os.pwrite(descriptor, f"{os.getpid()}\n".encode(), 0)
        yield
    finally:
        os.close(descriptor)  # closing the file releases the lock


def _busy_line(out_dir: Path, descriptor: int) -> str:
    """The refusal, with the holder's pid when it has written it yet."""
    holder = os.pread(descriptor, 32, 0).decode("ascii", "replace").strip()
    who = f" (pid {holder})" if holder.isdigit() else ""
    return (
        f"{out_dir}: another `judge grade`{who} is writing this gradebook folder; "
        f"wait for it to end and run the same command again, or give another --out"
    )
