"""What the launcher (judge/forkserver.py) does as the PID 1 of a warm box, where it is root: it takes the box
over once, and empties it after every test. Standard library only, like the launcher.

- `take_over`: a writable PID counter of the box's own (to reset before each run: every test's first process is
  PID 2) and the box's POSIX message queues, each opened from a private mount that is detached at once, so no
  process of the box ever sees it; the box's /proc mounted again with `hidepid=invisible` (the launcher's own
  counters, which grow with every test, are nobody else's to read); no capability left to inherit.
- `empty`: the box's writable folders, its POSIX message queues and System V objects, after a test.
"""

from __future__ import annotations

import ctypes
import os

MS_RDONLY, MS_NOSUID, MS_NODEV, MS_NOEXEC = 1, 2, 4, 8
MNT_DETACH = 2
PR_CAPBSET_DROP = 24
CAPABILITY_VERSION_3 = 0x20080522
IPC_RMID = 0
BOX_TMP = "/tmp"  # a tmpfs of the box, for a moment's private mounts


def take_over(libc: ctypes.CDLL) -> tuple[int, int]:
    """Take the box over (see above); returns the descriptors of its PID counter and its message queues."""
    last_pid = _open_private(libc, "proc", "sys/kernel/ns_last_pid", os.O_WRONLY)
    queues = _open_private(libc, "mqueue", ".", os.O_RDONLY | os.O_DIRECTORY)
    _mount(libc, "proc", "/proc", "proc", MS_RDONLY | MS_NOSUID | MS_NODEV | MS_NOEXEC, "hidepid=invisible")
    _clear_inheritable_capabilities(libc)
    return last_pid, queues


def empty(folders: list[str], queues: int | None) -> None:
    """Empty `folders` and, where the launcher holds them (`queues`), the box's IPC namespace, which outlives a
    test too."""
    for folder in folders:
        for entry in _entries(folder):
            _remove(os.path.join(folder, entry))
    if queues is not None:
        for name in os.listdir(queues):
            os.unlink(name, dir_fd=queues)
        _remove_system_v_objects()


def _mount(libc: ctypes.CDLL, source: str, target: str, kind: str, flags: int, options: str | None) -> None:
    data = options.encode() if options is not None else None
    if libc.mount(source.encode(), target.encode(), kind.encode(), flags, data) != 0:
        raise OSError(ctypes.get_errno(), f"mount {kind} on {target} failed")


def _clear_inheritable_capabilities(libc: ctypes.CDLL) -> None:
    """Empty the bounding and inheritable sets (the launcher keeps its own permitted ones), so a run, started
    as the box's uid, has no capability in any set, as in a box of its own (setpriv there)."""
    capability = 0
    while libc.prctl(PR_CAPBSET_DROP, capability, 0, 0, 0) == 0:
        capability += 1
    header = (ctypes.c_uint32 * 2)(CAPABILITY_VERSION_3, 0)
    data = (ctypes.c_uint32 * 6)()  # two of {effective, permitted, inheritable}
    if libc.capget(header, data) != 0:
        raise OSError(ctypes.get_errno(), "capget failed")
    data[2] = data[5] = 0
    if libc.capset(header, data) != 0:
        raise OSError(ctypes.get_errno(), "capset failed")


def _open_private(libc: ctypes.CDLL, kind: str, inside: str, flags: int) -> int:
    """A file of a private mount of `kind` (proc, mqueue), open: the mount is made in the box's /tmp, the file
    opened, and the mount detached at once, so only the descriptor remains and no process of the box ever sees
    it (the box's own /proc is read-only: the PID counter needs a writable one)."""
    where = os.path.join(BOX_TMP, f".{kind}-{os.getpid()}")
    os.mkdir(where, mode=0o700)
    try:
        _mount(libc, kind, where, kind, MS_NOSUID | MS_NODEV | MS_NOEXEC, None)
        try:
            return os.open(os.path.join(where, inside), flags | os.O_CLOEXEC)
        finally:
            libc.umount2(where.encode(), MNT_DETACH)
    finally:
        os.rmdir(where)


def _remove_system_v_objects() -> None:
    """Remove the System V shared memory, message queues and semaphores a test made (listed in /proc/sysvipc)."""
    libc = ctypes.CDLL(None, use_errno=True)
    removers = {"shm": lambda ident: libc.shmctl(ident, IPC_RMID, None),
                "msg": lambda ident: libc.msgctl(ident, IPC_RMID, None),
                "sem": lambda ident: libc.semctl(ident, 0, IPC_RMID)}
    for kind, remove in removers.items():
        try:
            with open(f"/proc/sysvipc/{kind}") as listing:
                rows = listing.read().splitlines()[1:]
        except OSError:
            continue
        for row in rows:
            remove(int(row.split()[1]))


def _entries(folder: str) -> list[str]:
    try:
        return os.listdir(folder)
    except OSError:
        return []


def _remove(path: str) -> None:
    """Delete a file or a tree the test made, also one it made unreadable (it is the launcher's own uid)."""
    def allow_and_retry(function, name, _error) -> None:  # type: ignore[no-untyped-def]
        os.chmod(os.path.dirname(name), 0o700)
        function(name)

    try:
        if os.path.isdir(path) and not os.path.islink(path):
            import shutil  # noqa: PLC0415 -- only for a test that left a folder: not in every launcher's start
            os.chmod(path, 0o700)
            shutil.rmtree(path, onerror=allow_and_retry)
        else:
            os.unlink(path)
    except OSError:
        pass
