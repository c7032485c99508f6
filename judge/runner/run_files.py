"""A run's standard streams and the files behind them (runner/execute.py's `run` holds them from before the start
to after the facts are read): the test's input as a private copy, the output files new or kept from the run
before (`KeptOutputs`), their sizes, the stderr tail, and whether the judge's own disk still had room.
"""

from __future__ import annotations

import errno
import fcntl
import os
import shutil
import stat
import tempfile
from pathlib import Path

from judge.errors import JudgeFailure
from judge.runner.launcher.copying import send_whole

STDERR_TAIL_BYTES = 2048


class KeptOutputs:
    """The output files of a submission's runs, kept open from one run to the next, and emptied for it.

    A new file costs ext4 0.1 ms of CPU time (an inode, a journal entry), two per test; truncating one to empty
    costs 2 µs as long as no descriptor of it is closed (closing any descriptor of a file truncated to empty
    makes ext4 write it out: 0.4 to 3 ms, see `_new_file`), so the judge reads the output through it (`read`).
    A file is kept only from a run whose every process is known gone (`Run.emptied`): none can write into the
    next run's output. The next run shares the judge's open file, so what a run could
    set on it is undone first: its flags (O_APPEND, O_DIRECT, O_NONBLOCK...) and its offset. (A lock held
    through it binds no one: the next run holds the same open file.) A file renamed or replaced since (a run
    kept aside by judging/measuring.py) is not the path's any more, and is closed instead.
    """

    def __init__(self) -> None:
        self._files: dict[Path, int] = {}

    def take(self, path: Path) -> int | None:
        """The file kept for `path`, emptied and as if new; None when there is none (or no longer)."""
        descriptor = self._files.pop(path, None)
        if descriptor is None:
            return None
        try:
            if not os.path.samestat(os.fstat(descriptor), os.stat(path, follow_symlinks=False)):
                raise FileNotFoundError(path)
            fcntl.fcntl(descriptor, fcntl.F_SETFL, 0)
            os.ftruncate(descriptor, 0)
            os.lseek(descriptor, 0, os.SEEK_SET)
        except OSError:
            os.close(descriptor)
            return None
        return descriptor

    def keep(self, path: Path, descriptor: int) -> None:
        self._files[path] = descriptor

    def read(self, path: Path) -> bytes:
        """What the file at `path` holds: through the file kept for it, if `path` still names it, else from the
        path. A descriptor of the reader's own would make ext4 write out the emptied file when it is closed (0.1 ms
        of CPU time and a disk write a test: ext4 does so for any file emptied by a truncation)."""
        descriptor = self._files.get(path)
        try:
            if descriptor is None or not os.path.samestat(os.fstat(descriptor), os.stat(path)):
                return read_whole(path)
        except FileNotFoundError:
            return read_whole(path)  # raises the error a missing output deserves
        size, chunks, offset = os.fstat(descriptor).st_size, [], 0
        while offset < size and (chunk := os.pread(descriptor, size - offset, offset)):
            chunks.append(chunk)
            offset += len(chunk)
        return b"".join(chunks)

    def __enter__(self) -> KeptOutputs:
        return self

    def __exit__(self, *_: object) -> None:
        for descriptor in self._files.values():
            os.close(descriptor)
        self._files.clear()


class RunFiles:
    """A run's standard streams, open in the judge from before the start to after the facts are read.

    The child could reopen its stdin for writing through /proc/self/fd/0 whatever mode it was opened in (in a
    box too, where the box's uid may map to the file's owner), so it reads a private copy of the input, never
    the problem's test file: on Linux a sealed memfd, which no one can write or resize (no file system work,
    about 0.1 ms less per test than a copy), elsewhere a copy in the scratch folder. Pipe ends given in the spec
    (an interactive problem's) are used as they are, and closed once the child has its own copies.
    """

    def __init__(
        self,
        paths: tuple[Path, Path, Path],
        pipes: tuple[int | None, int | None] = (None, None),
        kept: KeptOutputs | None = None,
    ) -> None:
        """`paths`: stdin, stdout, stderr; `pipes`: the pipe ends to use instead of the first two, where given."""
        stdin_path, stdout_path, stderr_path = paths
        stdin_fd, stdout_fd = pipes
        self._own: list[int] = []
        self._outputs: dict[int, Path] = {}  # the output files, to hand to `kept` after a run that left nothing
        self._kept = kept
        self.reusable = False  # set once every process of the run is known gone
        self._pipes = [descriptor for descriptor in pipes if descriptor is not None]
        self._folder = stderr_path.parent
        try:
            self.stdin = stdin_fd if stdin_fd is not None else self._keep(_private_copy(stdin_path, stdout_path))
            self.stdout = stdout_fd if stdout_fd is not None else self._output(stdout_path)
            self.stderr = self._output(stderr_path)
            self.files = tuple(descriptor for descriptor in (self.stdout, self.stderr) if descriptor in self._own)
        except BaseException:
            self.__exit__()
            raise

    def _keep(self, descriptor: int) -> int:
        self._own.append(descriptor)
        return descriptor

    def _output(self, path: Path) -> int:
        taken = self._kept.take(path) if self._kept is not None else None
        descriptor = self._keep(taken if taken is not None else _new_file(path))
        self._outputs[descriptor] = path
        return descriptor

    def __enter__(self) -> RunFiles:
        return self

    def __exit__(self, *_: object) -> None:
        self.child_started()
        for descriptor in self._own:
            if self.reusable and self._kept is not None and descriptor in self._outputs:
                self._kept.keep(self._outputs[descriptor], descriptor)
            else:
                os.close(descriptor)
        self._own.clear()

    def child_started(self) -> None:
        """The child holds its own copies now: the judge's ends of the given pipes must close, so that the
        programs at their other ends see the end of the stream when the child goes."""
        for descriptor in self._pipes:
            os.close(descriptor)
        self._pipes.clear()

    def size(self, descriptor: int) -> int:
        return os.fstat(descriptor).st_size

    def require_room(self, cap_bytes: int) -> None:
        """JudgeFailure unless the file system holding the output files still has room for everything the run was
        allowed to write (each file up to `cap_bytes`), checked after the run with its files still there.

        A write the judge's full disk refused (ENOSPC) looks to the program like any failed write: Python exits
        with 120, C's printf loses the rest silently (WA), a loop retrying runs out of time. None of that is the
        student's verdict, so a run that may have met a full disk gets none (JE). Measured, not reserved:
        fallocate of the output limit costs 60-80 µs per file on ext4 and zeroes real pages on a tmpfs /tmp
        (0.1 ms per MiB, 0.5 s for a 4 GiB limit); an fstatvfs costs 0.4 µs. What it cannot see is space that
        another process filled and freed again while the run was going: nothing in the box can do that."""
        statistics = [os.fstatvfs(descriptor) for descriptor in self.files]
        free = min(stat.f_bavail * stat.f_frsize for stat in statistics)  # what an unprivileged writer may use
        still = sum(
            max(0, cap_bytes - self.size(descriptor)) + stat.f_frsize  # + a block: sizes round up
            for descriptor, stat in zip(self.files, statistics, strict=True)
        )
        if free < still:
            raise JudgeFailure(
                f"the judge's temporary folder {_temp_folder(self._folder)} is full: {free // 1024} KiB "
                f"free where a run may write {still // 1024} KiB more; free some space there or set "
                f"TMPDIR to a folder with room"
            )

    def stderr_tail(self) -> str:
        """The last lines of the (capped) stderr, decoded for display."""
        size = self.size(self.stderr)
        start = max(0, size - STDERR_TAIL_BYTES)
        return os.pread(self.stderr, size - start, start).decode("utf-8", errors="replace").strip()


def read_whole(path: Path) -> bytes:
    """A file's bytes (a test's answer, an output): `Path.read_bytes` less its buffered file object, whose start
    (a terminal check, two seeks, a second fstat) doubles the system calls of a small file's read: 12 µs a file
    here instead of 21, two or three files a test. What cannot be read raises the OSError `Path.read_bytes`
    would, naming the path."""
    descriptor, size = _open_to_read(path)
    try:
        chunks, wanted = [], size + 1  # all of it in the first read, then the end
        while chunk := os.read(descriptor, wanted):
            chunks.append(chunk)
            wanted = 1 << 16
        return b"".join(chunks)
    except OSError as error:
        raise OSError(error.errno, error.strerror, os.fspath(path)) from None
    finally:
        os.close(descriptor)


def _open_to_read(path: Path) -> tuple[int, int]:
    """`path` open for reading, and its size; a folder refused as `open()` refuses it (its read would fail without
    a name, its sendfile with EINVAL)."""
    descriptor = os.open(path, os.O_RDONLY | os.O_CLOEXEC)
    status = os.fstat(descriptor)
    if stat.S_ISDIR(status.st_mode):
        os.close(descriptor)
        raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), os.fspath(path))
    return descriptor, status.st_size


def _new_file(path: Path) -> int:
    """An empty file at `path`, open for reading back (the size, the stderr tail), in place of any earlier one.

    Not O_TRUNC: ext4 writes a file truncated to empty out to disk when it is closed (its `auto_da_alloc`
    guard for programs that rewrite files in place), which cost 0.13 ms per output file per test, measured;
    a new inode costs 0.015 ms."""
    path.unlink(missing_ok=True)
    return os.open(path, os.O_RDWR | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, 0o644)


def _temp_folder(folder: Path) -> Path:
    """The folder to name when `folder` (a run's scratch folder) is full: the judge's temporary folder (TMPDIR)
    it was made in, else `folder` itself."""
    temporary = Path(tempfile.gettempdir())
    return temporary if folder.is_relative_to(temporary) else folder


def _private_copy(stdin_path: Path, stdout_path: Path) -> int:
    """A read-only copy of `stdin_path`, open at its start (see `RunFiles`); where there is no memfd, a file
    beside `stdout_path`."""
    if not hasattr(os, "memfd_create"):
        path = stdout_path.with_name(f"{stdout_path.name}.stdin")
        shutil.copyfile(stdin_path, path)
        try:
            return os.open(path, os.O_RDONLY | os.O_CLOEXEC)
        finally:
            path.unlink()  # the open descriptor is all the child needs
    source, size = _open_to_read(stdin_path)
    try:
        copy = os.memfd_create("stdin", os.MFD_CLOEXEC | os.MFD_ALLOW_SEALING)
        try:
            send_whole(copy, source, size)
            fcntl.fcntl(
                copy,
                fcntl.F_ADD_SEALS,
                fcntl.F_SEAL_WRITE | fcntl.F_SEAL_GROW | fcntl.F_SEAL_SHRINK | fcntl.F_SEAL_SEAL,
            )
            os.lseek(copy, 0, os.SEEK_SET)
        except OSError:
            os.close(copy)
            raise
        return copy
    finally:
        os.close(source)
