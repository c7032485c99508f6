"""What the launcher (server.py) does as the PID 1 of a warm box, where it is root: it takes the box over once,
and gives every test a box like the first one's. Standard library only, like the launcher, and
nothing imported later: once the box is taken over, the launcher's own code is no longer in it.

- `take_over`: a writable PID counter of the box's own (to reset before each run: every test's first process is
  PID 2), opened from a private mount that is detached at once, so no process of the box ever sees it; the box's
  /proc mounted again with `hidepid=invisible` (the launcher's own counters, which grow with every test, are
  nobody else's to read); the launcher's code unmounted; no capability left to inherit.
- `settle_program`: before the first test, the program folder copied into a tmpfs of the box's own: a bind
  mount of a host folder names that folder in the box's mount table.
- `no_socket_left`: once a test's processes are gone, no socket of the box's may be left. A socket sent over
  a socket into itself (SCM_RIGHTS) is "in flight": no process holds it, so killing every process frees it only
  when the kernel's collector runs, which since Linux 6.10 is apart and later, after some Unix socket is released
  anywhere. Until then everything it carries stays open: a descriptor of a file in /program holding byte-range
  locks (F_OFD_SETLK) that the next test reads back (F_OFD_GETLK), an abstract socket name, the old mount of a
  writable folder. So the launcher counts the sockets of the box's network namespace, which holds none of the
  judge's (the launcher's own were made outside); if any is left, it releases Unix sockets of its own to start
  the collector until the count is back, and a box whose count does not come back serves no other test.
- `fresh_namespaces` and `fresh_folders`: for every test, a fresh namespace or mount for everything a test could
  leave something in or count with: a new IPC namespace (System V ids, POSIX message queues), made while the
  test before runs; once its processes are gone, a new tmpfs on each writable folder (a file's inode number, what
  the test left there). The old ones go in one detach: every detach waits for an RCU grace period, a sleep of
  the launcher (one more wake-up per test) that interrupts every CPU, so the other folders' mounts are first
  moved into the first one's, and detaching that takes them all (3 sleeps to 1, the reset's wall time halved,
  measured; a move that cannot be made, as into a full folder, leaves that folder to a detach of its own).
  The network namespace is the box's for all its tests: no run in a box may make a socket but a Unix-domain one
  (judge/runner/syscall_filter.py), so none leaves a trace in it (counters, TIME_WAIT), and a new one per test
  cost about 0.9 ms, mostly the kernel's tear-down of the old. Nothing the test left is looked at (the folders
  the reset makes are its own, never a name a test left), so nothing it left can make the reset fail; what fails
  anyway (the machine out of memory) is returned, not raised.
"""

from __future__ import annotations

import _socket
import ctypes
import os
import stat
import time

from judge.runner.launcher.copying import send_whole

MS_RDONLY, MS_NOSUID, MS_NODEV, MS_NOEXEC = 1, 2, 4, 8
MS_REMOUNT, MS_BIND, MS_MOVE = 32, 4096, 8192
MOUNT_FLAGS = {
    "ro": MS_RDONLY,
    "nosuid": MS_NOSUID,
    "nodev": MS_NODEV,
    "noexec": MS_NOEXEC,
    "noatime": 1024,
    "nodiratime": 2048,
    "relatime": 1 << 21,
    "strictatime": 1 << 24,
}
MNT_DETACH = 2
CLONE_NEWIPC = 0x08000000
PR_CAPBSET_DROP = 24
CAPABILITY_VERSION_3 = 0x20080522
BOX_TMP = "/tmp"  # a tmpfs of the box, for a moment's private mounts
CARRIED = ".judge-reset-{}"  # where, in the first writable folder, another's old mount is moved to go with it


class Scratch:
    """A writable folder of the box (a tmpfs) and how bwrap mounted it, to mount a fresh one the same way. Not a
    frozen dataclass: `dataclasses` takes 5 ms to import, in the launcher's start."""

    __slots__ = ("flags", "options", "path")

    def __init__(self, path: str, flags: int, options: str) -> None:
        self.path, self.flags, self.options = path, flags, options


def take_over(libc: ctypes.CDLL, scratch: list[str], own_code: str | None) -> tuple[int, list[Scratch]]:
    """Take the box over (see above); returns the descriptor of its PID counter and its writable folders."""
    last_pid = _open_private(libc, "proc", "sys/kernel/ns_last_pid", os.O_WRONLY)
    _mount(libc, "proc", "/proc", "proc", MS_RDONLY | MS_NOSUID | MS_NODEV | MS_NOEXEC, "hidepid=invisible")
    if own_code is not None:
        _detach(libc, own_code)
    _clear_inheritable_capabilities(libc)
    folders = [_as_mounted(path) for path in scratch]
    _raise_any(reset(libc, folders))  # the private mount above took an inode of /tmp
    return last_pid, folders


def settle_program(libc: ctypes.CDLL, program: str, scratch: list[Scratch]) -> None:
    """Before the first test (the launcher starts while the program compiles): copy the program folder into a
    tmpfs of the box's own, then mount the writable folders again, so the box's mount table lists them after the
    program folder for the first test as for every other."""
    _copy_into_own_tmpfs(libc, program)
    _raise_any(fresh_folders(libc, scratch))


def _raise_any(failures: list[str]) -> None:
    if failures:
        raise OSError(f"the box could not be set up: {'; '.join(failures)}")


def reset(libc: ctypes.CDLL, scratch: list[Scratch]) -> list[str]:
    """Fresh writable folders and IPC namespace (see above); what failed, one line each (empty when
    the box is as the first test found it)."""
    return fresh_folders(libc, scratch) + fresh_namespaces(libc)


def fresh_folders(libc: ctypes.CDLL, scratch: list[Scratch]) -> list[str]:
    """A fresh tmpfs on each writable folder, once a test's processes are gone, the old ones detached together
    (see above); what failed. A folder whose old mount could not be detached is not mounted again."""
    if not scratch:
        return []
    carrier, *others = scratch
    carried = [folder for number, folder in enumerate(others) if _carry(libc, folder, carrier, number)]
    failures, stuck = [], []
    for folder in scratch:
        if folder in carried:
            continue
        try:
            _detach(libc, folder.path)
        except Exception as error:  # noqa: BLE001 -- whatever it is, the box is not reset: the judge must know
            failures.append(f"{folder.path}: {error}")
            stuck.append(folder)
    for folder in scratch:
        if folder in stuck:
            continue
        try:
            _mount(libc, "tmpfs", folder.path, "tmpfs", folder.flags, folder.options)
        except Exception as error:  # noqa: BLE001 -- as above
            failures.append(f"{folder.path}: {error}")
    return failures


class SocketCount:
    """The number of sockets in the box's network namespace (/proc/net/sockstat's "sockets: used", read through a
    descriptor kept open: 4 us a test, where listing /proc/net/unix costs 40), and that number between two tests
    (the launcher's own sockets were made outside the box: none of its sockets count)."""

    __slots__ = ("descriptor", "usual")

    def __init__(self) -> None:
        self.descriptor = os.open("/proc/net/sockstat", os.O_RDONLY | os.O_CLOEXEC)
        self.usual = self.now()

    def now(self) -> int:
        return int(os.pread(self.descriptor, 64, 0).split()[2])  # "sockets: used N"


def no_socket_left(count: SocketCount, patience: float = 1.0) -> list[str]:
    """Once a test's processes are gone: wait for the sockets they left in flight to be collected (see above);
    what failed (empty when none is left, at once in the usual case)."""
    deadline, pause = time.monotonic() + patience, 0.0005
    while count.now() > count.usual:
        if time.monotonic() > deadline:
            return ["a socket outlived its test (in flight, and not collected)"]
        for end in _socket.socketpair(_socket.AF_UNIX, _socket.SOCK_STREAM):
            end.close()  # a Unix socket released: the collector starts
        time.sleep(pause)
        pause = min(2 * pause, 0.05)
    return []


def fresh_namespaces(libc: ctypes.CDLL) -> list[str]:
    """A new IPC namespace for the launcher, so for the next test it starts (a test keeps the one it was started
    in, which goes with its last process); what failed."""
    try:
        if libc.unshare(CLONE_NEWIPC) != 0:
            raise OSError(ctypes.get_errno(), "unshare failed")
    except Exception as error:  # noqa: BLE001 -- as above
        return [f"new IPC namespace: {error}"]
    return []


def _carry(libc: ctypes.CDLL, folder: Scratch, carrier: Scratch, number: int) -> bool:
    """Move the mount on `folder.path` into a folder made here in `carrier`'s mount (never one a test made,
    which could lead elsewhere), so that detaching `carrier` detaches it too; False where it cannot be (the
    carrier full, a test's file of that name), and the folder is then detached on its own."""
    into = os.path.join(carrier.path, CARRIED.format(number))
    try:
        os.mkdir(into, 0o700)
    except OSError:
        return False
    return libc.mount(folder.path.encode(), into.encode(), None, MS_MOVE, None) == 0


def _detach(libc: ctypes.CDLL, path: str) -> None:
    """Detach the mount on `path` and all below it (lazily: whatever is left in it goes with its last user):
    nothing of what the test left is traversed."""
    if libc.umount2(path.encode(), MNT_DETACH) != 0:
        raise OSError(ctypes.get_errno(), f"umount {path} failed")


def _as_mounted(path: str) -> Scratch:
    """How `path`, a tmpfs, is mounted (its flags and options, from the box's mount table, and the mode and
    owner of its root), so a fresh one can be mounted the same way."""
    mounted = None
    with open("/proc/self/mountinfo") as table:
        for line in table:
            before, _, after = line.partition(" - ")
            fields = before.split()
            if fields[4] == path:
                mounted = (fields[5], after.split()[2])  # the last one: the mount on top
    if mounted is None:
        raise OSError(f"{path} is not a mount point")
    flags = sum(MOUNT_FLAGS.get(flag, 0) for flag in mounted[0].split(","))
    status = os.stat(path)
    options = [option for option in mounted[1].split(",") if option not in ("rw", "ro")]
    options += [f"mode={stat.S_IMODE(status.st_mode):o}", f"uid={status.st_uid}", f"gid={status.st_gid}"]
    return Scratch(path, flags, ",".join(options))


def _copy_into_own_tmpfs(libc: ctypes.CDLL, folder: str) -> None:
    """Replace the bind mount of a host folder at `folder` by a read-only tmpfs holding a copy of it (modes,
    owners and times kept, so a cached byte code stays valid): a bind mount names its host folder in the box's
    mount table."""
    source = os.open(folder, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    try:
        _detach(libc, folder)
        _mount(libc, "tmpfs", folder, "tmpfs", MS_NOSUID | MS_NODEV, "mode=755")
        _copy_tree(source, folder)
        status = os.fstat(source)
        os.chown(folder, status.st_uid, status.st_gid)
        os.chmod(folder, stat.S_IMODE(status.st_mode))
    finally:
        os.close(source)
    _mount(libc, "none", folder, "", MS_REMOUNT | MS_BIND | MS_RDONLY | MS_NOSUID | MS_NODEV, None)


def _copy_tree(source: int, target: str) -> None:
    """Copy the folder open at `source` into the folder `target`, without recursion (a folder's depth is the
    submission's to choose when it compiles)."""
    pending = [(os.dup(source), target)]
    while pending:
        folder, destination = pending.pop()
        try:
            for entry in os.scandir(folder):
                path = os.path.join(destination, entry.name)
                status = entry.stat(follow_symlinks=False)
                if entry.is_symlink():
                    os.symlink(os.readlink(entry.name, dir_fd=folder), path)
                elif entry.is_dir(follow_symlinks=False):
                    os.mkdir(path, 0o700)
                    pending.append(
                        (os.open(entry.name, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC, dir_fd=folder), path)
                    )
                elif entry.is_file(follow_symlinks=False):
                    _copy_file(folder, entry.name, path)
                else:
                    continue
                os.chown(path, status.st_uid, status.st_gid, follow_symlinks=False)
                if not entry.is_symlink():
                    os.chmod(path, stat.S_IMODE(status.st_mode))
                os.utime(path, ns=(status.st_atime_ns, status.st_mtime_ns), follow_symlinks=False)
        finally:
            os.close(folder)


def _copy_file(folder: int, name: str, path: str) -> None:
    reader = os.open(name, os.O_RDONLY | os.O_CLOEXEC, dir_fd=folder)
    try:
        writer = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, 0o600)
        try:
            send_whole(writer, reader, os.fstat(reader).st_size)
        finally:
            os.close(writer)
    finally:
        os.close(reader)


def _mount(libc: ctypes.CDLL, source: str, target: str, kind: str, flags: int, options: str | None) -> None:
    data = options.encode() if options is not None else None
    if libc.mount(source.encode(), target.encode(), kind.encode(), flags, data) != 0:
        raise OSError(ctypes.get_errno(), f"mount {kind or 'remount'} on {target} failed")


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
    """A file of a private mount of `kind`, open: the mount is made in the box's /tmp, the file opened, and the
    mount detached at once, so only the descriptor remains and no process of the box ever sees it (the box's
    own /proc is read-only: the PID counter needs a writable one)."""
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
