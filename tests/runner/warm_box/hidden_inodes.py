# Input "spend N": take N inode numbers of /tmp and leave no trace a watch of the folder would see. Landlock (a
# sandbox any process may put itself in) is set to refuse every file open, and then N unnamed files (O_TMPFILE)
# are opened: tmpfs numbers each inode before the open is refused, and a refused open tells inotify nothing.
# Input "look": print the number the next inode of /tmp gets. A test that spends and a later one that looks pass
# a number from one to the other unless the folder is mounted afresh between every two tests.
import ctypes
import os
import struct

LANDLOCK_CREATE_RULESET, LANDLOCK_RESTRICT_SELF = 444, 446  # the same on every architecture
READ_FILE, WRITE_FILE = 1 << 2, 1 << 1
PR_SET_NO_NEW_PRIVS = 38
libc = ctypes.CDLL(None, use_errno=True)

words = input().split()
if words[0] == "spend":
    handled = struct.pack("QQQ", READ_FILE | WRITE_FILE, 0, 0)  # struct landlock_ruleset_attr, no rule added
    ruleset = libc.syscall(LANDLOCK_CREATE_RULESET, handled, len(handled), 0)
    libc.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0)
    confined = ruleset >= 0 and libc.syscall(LANDLOCK_RESTRICT_SELF, ruleset, 0) == 0
    for _ in range(int(words[1]) if confined else 0):
        try:
            os.close(os.open("/tmp", os.O_TMPFILE | os.O_RDWR, 0o600))
        except OSError:
            pass
    print("spent" if confined else "no landlock here")
else:
    print(os.fstat(os.open("/tmp", os.O_TMPFILE | os.O_RDWR, 0o600)).st_ino)
