# Looks for descriptors it was given beyond its stdin, stdout and stderr (the launcher's socket, a control
# group's files, another run's streams: anything of the judge's), and prints them; else the input (so AC).
# Expected: AC everywhere. Must NOT: find any.
import ctypes
import os
import sys

ctypes.CDLL(None).prctl(15, b"@TAG@", 0, 0, 0)
data = sys.stdin.read()
extra = []
for name in os.listdir("/proc/self/fd"):
    try:
        target = os.readlink(f"/proc/self/fd/{name}")
    except OSError:
        continue  # the listing's own descriptor, closed by now
    if int(name) > 2:
        extra.append(f"{name}->{target}")
print(f"inherited {' '.join(extra)}" if extra else data, end="" if not extra else "\n")
