# Reads /proc/<pid>/environ of its parent chain and of every visible process, looking for the judge's
# environment variable JUDGE_HOSTILE_SECRET, and prints its value.
# Expected: bwrap WA (the judge is not in its PID namespace); unconfined AC: it CAN read it (documented).
import ctypes
import os

ctypes.CDLL(None).prctl(15, b"@TAG@", 0, 0, 0)
NEEDLE = b"JUDGE_HOSTILE_SECRET="
pids = [os.getppid()] + [int(name) for name in os.listdir("/proc") if name.isdigit()]
for pid in pids:
    try:
        with open(f"/proc/{pid}/environ", "rb") as handle:
            variables = handle.read().split(b"\0")
    except OSError:
        continue
    found = [v[len(NEEDLE):] for v in variables if v.startswith(NEEDLE)]
    if found:
        print(found[0].decode())
        break
else:
    print(f"nothing-in-{len(pids)}-processes")
