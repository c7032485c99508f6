# Reads the ids that Linux (6.8 on) hands out from counters that never go back: a mount's unique id (by statx, by
# name_to_handle_at, by listmount) against the box's root mount's, and a namespace's id (by the nsfs ioctls)
# against the box's mount namespace's, and a process's (the inode number of its pidfd, Linux 6.9 on) against the
# box's PID 1's. A warm box mounts its writable folders and makes its IPC namespace anew for every test, and its
# PID 1 stays, so where a box lets a program read these ids, each gap grows by the same step each test (the last
# by one a test on a quiet machine). Prints the gaps as one word ("-" where the box gives no id): in a box of its
# own every test prints the same.
import ctypes
import fcntl
import os
import struct

STATX_MNT_ID_UNIQUE, AT_HANDLE_MNT_ID_UNIQUE, AT_FDCWD = 0x4000, 1, -100
NS_GET_MNTNS_ID, NS_GET_ID = 0x8008B705, 0x8008B70D  # _IOR(NSIO, 5 and 13, __u64): Linux 6.9 and 6.18
LISTMOUNT, PIDFD_OPEN, LSMT_ROOT = 458, 434, 2**64 - 1  # the same system call numbers on every architecture
libc = ctypes.CDLL(None, use_errno=True)


def by_statx(path: str) -> int | None:
    buffer = ctypes.create_string_buffer(256)  # struct statx: stx_mask at 0, stx_mnt_id at 144
    if libc.statx(AT_FDCWD, path.encode(), 0, STATX_MNT_ID_UNIQUE, buffer) != 0:
        return None
    mask, mount_id = struct.unpack_from("I", buffer, 0)[0], struct.unpack_from("Q", buffer, 144)[0]
    return mount_id if mask & STATX_MNT_ID_UNIQUE else None


def by_handle(path: str) -> int | None:
    handle = ctypes.create_string_buffer(struct.pack("Ii", 128, 0) + bytes(128))
    mount_id = ctypes.c_uint64()
    found = libc.name_to_handle_at(AT_FDCWD, path.encode(), handle, ctypes.byref(mount_id), AT_HANDLE_MNT_ID_UNIQUE)
    return mount_id.value if found == 0 else None


def listed() -> tuple[int | None, int | None]:
    """The lowest and the highest unique id of the box's mounts."""
    request = struct.pack("IIQQ", 24, 0, LSMT_ROOT, 0)  # struct mnt_id_req, version 0
    ids = (ctypes.c_uint64 * 256)()
    count = libc.syscall(LISTMOUNT, request, ids, 256, 0)
    return (min(ids[:count]), max(ids[:count])) if count > 0 else (None, None)


def namespace_id(kind: str, request: int) -> int | None:
    try:
        with open(f"/proc/self/ns/{kind}", "rb") as namespace:
            return struct.unpack("Q", fcntl.ioctl(namespace.fileno(), request, bytes(8)))[0]
    except OSError:
        return None


def pidfd_inode(pid: int) -> int | None:
    descriptor = libc.syscall(PIDFD_OPEN, pid, 0)
    if descriptor < 0:
        return None
    try:
        return os.fstat(descriptor).st_ino
    finally:
        os.close(descriptor)


def gap(first: int | None, then: int | None) -> str:
    return "-" if first is None or then is None else str(then - first)


print("ids" + ",".join([gap(by_statx("/"), by_statx("/tmp")), gap(by_handle("/"), by_handle("/tmp")), gap(*listed()),
                        gap(namespace_id("mnt", NS_GET_MNTNS_ID), namespace_id("ipc", NS_GET_ID)),
                        gap(pidfd_inode(1), pidfd_inode(os.getpid()))]))
