# Sends SIGKILL to its parent's process group (the judge's, when unconfined), then to process group 1, then
# echoes the input. RUN ONLY IN A PID NAMESPACE: refuses to act (exit 3) in the host's PID namespace.
# Expected (bwrap): AC, or RE when a group it reaches is its own; the judge stays alive. Never unconfined.
import ctypes
import os
import signal
import sys

ctypes.CDLL(None).prctl(15, b"@TAG@", 0, 0, 0)
if os.readlink("/proc/self/ns/pid") == "@HOST_PIDNS@":
    sys.exit(3)
data = sys.stdin.read()
for group in {os.getpgid(os.getppid()), 1}:
    try:
        os.killpg(group, signal.SIGKILL)
    except OSError:
        pass
sys.stdout.write(data)
