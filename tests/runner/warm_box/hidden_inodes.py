# Input "spend N": try to take N inode numbers of /tmp and leave no trace the reset would see. Landlock (a
# sandbox any process may put itself in) is set to refuse every file creation, and then N of each are tried: an
# unnamed file (O_TMPFILE: tmpfs numbers its inode before Landlock refuses the open, so only the seccomp filter's
# refusal, before the call starts, stops it), a named file, a folder, a symlink and a FIFO (Landlock refuses
# these before tmpfs numbers anything). Input "look": print the number a new file in /tmp gets (and remove it).
# A test that spends and a later one that looks pass a number from one to the other unless the folder is mounted
# afresh after every test that took one.
import ctypes
import os
import struct

LANDLOCK_CREATE_RULESET, LANDLOCK_RESTRICT_SELF = 444, 446  # the same on every architecture
EVERY_FILE_ACCESS = (1 << 13) - 1  # Landlock's first ABI: execute, read, write, remove, make each kind of file
PR_SET_NO_NEW_PRIVS = 38
libc = ctypes.CDLL(None, use_errno=True)
MAKERS = (
    lambda name: os.close(os.open("/tmp", os.O_TMPFILE | os.O_RDWR, 0o600)),
    lambda name: os.close(os.open(name, os.O_CREAT | os.O_RDWR, 0o600)),
    lambda name: os.mkdir(name),
    lambda name: os.symlink("/", name),
    lambda name: os.mkfifo(name),
)

words = input().split()
if words[0] == "spend":
    handled = struct.pack("Q", EVERY_FILE_ACCESS)  # struct landlock_ruleset_attr of the first ABI, no rule added
    ruleset = libc.syscall(LANDLOCK_CREATE_RULESET, handled, len(handled), 0)
    libc.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0)
    confined = ruleset >= 0 and libc.syscall(LANDLOCK_RESTRICT_SELF, ruleset, 0) == 0
    for number in range(int(words[1]) if confined else 0):
        for make in MAKERS:
            try:
                make(f"/tmp/spent-{number}")
            except OSError:
                pass
    print("spent" if confined else "no landlock here")
else:
    path = "/tmp/look"
    with open(path, "w") as made:
        print(os.fstat(made.fileno()).st_ino)
    os.remove(path)
