# Tries to make a file with no name (O_TMPFILE, through `open` and through `openat2`) in the writable folder its
# input names, and prints what became of each try. Such a file takes an inode number of the folder's tmpfs, which
# counts, and no listing or date of the folder shows it: a warm box keeps a folder for the next test when the
# test left no trace in it, so every run must be refused both (EOPNOTSUPP, ENOSYS), in every test alike.
import ctypes
import errno
import os
import struct

OPENAT2 = 437  # the same on every architecture
AT_FDCWD = -100
libc = ctypes.CDLL(None, use_errno=True)


def outcome(descriptor: int, error: int) -> str:
    return f"made:{os.fstat(descriptor).st_ino}" if descriptor >= 0 else errno.errorcode[error]


folder = input().strip()
try:
    tried = outcome(os.open(folder, os.O_TMPFILE | os.O_RDWR, 0o600), 0)
except OSError as error:
    tried = outcome(-1, error.errno)
how = struct.pack("QQQ", os.O_TMPFILE | os.O_RDWR, 0o600, 0)  # struct open_how: flags, mode, resolve
descriptor = libc.syscall(OPENAT2, AT_FDCWD, folder.encode(), how, len(how))
print(tried, outcome(descriptor, ctypes.get_errno()), sep="/")  # one word: the WA message shows one
