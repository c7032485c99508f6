# What a writable folder's root tells of the tests before. Prints, for /box, /tmp and /dev/shm: their atime and
# mtime ("epoch" in a warm box, which dates every fresh or kept root so), whether their birth time can be read
# (never: it would tell a kept folder's age), then the wall-clock time now and the oldest of their ctimes. A reset
# after every test dates the roots again, so each test's ctime is later than the moment the test before printed;
# a kept folder with the ctime of its first test would tell how many tests ago the last one wrote there, or which
# test this is. Then it does to every folder what its input says: "nothing", "list" (read its listing), "name"
# (make a file and remove it), "date" (set its times to now, which anyone who may write there may do).
import ctypes
import os
import time

STATX_BTIME, AT_FDCWD = 0x800, -100
PLACES = ("/box", "/tmp", "/dev/shm")
libc = ctypes.CDLL(None, use_errno=True)


def birth_time_given(place: str) -> bool:
    """Whether `statx` asking for the birth time gives it (glibc answers a refused statx from fstatat: no birth)."""
    buffer = ctypes.create_string_buffer(256)  # struct statx, whose first field is the mask of what it holds
    done = libc.statx(AT_FDCWD, place.encode(), 0, STATX_BTIME, buffer) == 0
    return done and bool(int.from_bytes(buffer.raw[:4], "little") & STATX_BTIME)


birth = "read" if any(birth_time_given(place) for place in PLACES) else "none"
dates = [(os.stat(place).st_atime_ns, os.stat(place).st_mtime_ns) for place in PLACES]
oldest_ctime = min(os.stat(place).st_ctime_ns for place in PLACES)
# One word of at most 40 characters (what a WA message shows): the times in milliseconds, modulo 10^8.
print(
    "epoch" if set(dates) == {(0, 0)} else "later",
    birth,
    *(ns // 10**6 % 10**8 for ns in (time.time_ns(), oldest_ctime)),
    sep="/",
)

action = input().strip()
for place in PLACES:
    if action == "list":
        os.listdir(place)
    elif action == "name":
        os.close(os.open(f"{place}/named", os.O_CREAT | os.O_WRONLY, 0o600))
        os.remove(f"{place}/named")
    elif action == "date":
        os.utime(place)
time.sleep(0.05)  # the kernel dates a file by its clock tick (up to 10 ms behind): the reset is later by more
