# Fills /tmp (then the working folder) with up to 10 GB in files of 512 KiB (under the per-file output cap),
# then echoes the input. Run only in the box, where /tmp is a 64 MiB tmpfs: never unconfined (the real disk).
# Expected: AC (ENOSPC stops it) or MLE (tmpfs pages count against the memory limit).
# Must NOT: write outside the box, or take long.
import ctypes
import os
import sys

ctypes.CDLL(None).prctl(15, b"@TAG@", 0, 0, 0)
data = sys.stdin.read()
chunk = b"x" * (512 * 1024)
for folder in ("/tmp", "."):
    written = 0
    try:
        while written < 10 * 1024**3:
            with open(os.path.join(folder, f"fill{written}"), "wb") as handle:
                handle.write(chunk)
            written += len(chunk)
    except OSError:
        pass
sys.stdout.write(data)
