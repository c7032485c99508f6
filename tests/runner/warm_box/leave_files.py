# Leaves files for the next test of the same submission in every place a box lets it write (/box, /tmp,
# /dev/shm; a hidden file, a folder it made unreadable, a POSIX message queue, System V shared memory, message
# queue and semaphores), after looking for what an earlier test left. Prints "clean" when it found nothing.
import ctypes
import os
import sys

PLACES = ("/box", "/tmp", "/dev/shm")
IPC_CREAT, IPC_EXCL = 0o1000, 0o2000
KEY = 0x4A554447  # one fixed key: a later test asks for the same one
libc = ctypes.CDLL(None, use_errno=True)
libc.mq_open.restype = ctypes.c_int

found = [f"{place}/{name}" for place in PLACES for name in os.listdir(place)]
if libc.mq_open(b"/judge-left", os.O_RDONLY) >= 0:
    found.append("mqueue")
for kind, get in (("shm", lambda: libc.shmget(KEY, 4096, 0)), ("msg", lambda: libc.msgget(KEY, 0)),
                  ("sem", lambda: libc.semget(KEY, 1, 0))):
    if get() >= 0:
        found.append(kind)

for place in PLACES:
    with open(f"{place}/.left", "w") as left:
        left.write("from an earlier test")
    locked = f"{place}/locked"
    os.mkdir(locked)
    open(f"{locked}/inside", "w").close()
    os.chmod(locked, 0)
libc.mq_open(b"/judge-left", os.O_CREAT | os.O_RDWR, 0o600, None)
libc.shmget(KEY, 4096, IPC_CREAT | 0o600)
libc.msgget(KEY, IPC_CREAT | 0o600)
libc.semget(KEY, 1, IPC_CREAT | 0o600)
print("found " + " ".join(sorted(found)) if found else "clean")
sys.stdout.flush()
