# Writes up to 256 MiB into each of the box's own folders that are neither /box nor /tmp: `/`, `/etc`, `/dev`
# and `/dev/shm`, in files of 512 KiB, then prints `wrote=<MiB>`. Without a control group such writes cost the
# host RAM that no limit counts, so only /dev/shm (a 64 MiB tmpfs) may take any.
# Expected (bwrap): WA with wrote <= 64, or MLE. Never unconfined: there `/` is the host's root.
import ctypes
import os
import sys

ctypes.CDLL(None).prctl(15, b"@TAG@", 0, 0, 0)
if os.readlink("/proc/self/ns/pid") == "@HOST_PIDNS@":
    sys.exit(3)
chunk = b"x" * (512 * 1024)
written = 0
for folder in ("/", "/etc", "/dev", "/dev/shm"):
    for index in range(512):
        try:
            with open(os.path.join(folder, f"fill{index}"), "wb") as handle:
                handle.write(chunk)
        except OSError:
            break
        written += len(chunk)
print(f"wrote={written // (1024 * 1024)}")
