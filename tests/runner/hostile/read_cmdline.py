# Reads /proc/<pid>/cmdline of its parent chain and of every visible process, looking for the judge's command
# line (which names the problem folder `prob-<secret>`), and prints the secret.
# Expected: bwrap WA; unconfined AC: it CAN read it (documented).
import ctypes
import os
import re

ctypes.CDLL(None).prctl(15, b"@TAG@", 0, 0, 0)
pids = [os.getppid()] + [int(name) for name in os.listdir("/proc") if name.isdigit()]
for pid in pids:
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as handle:
            found = re.search(rb"prob-(s[0-9a-f]{16})", handle.read())
    except OSError:
        continue
    if found:
        print(found.group(1).decode())
        break
else:
    print(f"nothing-in-{len(pids)}-processes")
