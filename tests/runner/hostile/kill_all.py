# kill(-1, SIGKILL): every process it may signal. RUN ONLY IN A PID NAMESPACE: it refuses to act (exit 3)
# when its PID namespace is the host's (as root that would end every process on the machine).
# Expected (bwrap): AC (kill(-1) spares the caller); the judge and the machine are untouched. Never unconfined.
import ctypes
import os
import signal
import sys

ctypes.CDLL(None).prctl(15, b"@TAG@", 0, 0, 0)
if os.readlink("/proc/self/ns/pid") == "@HOST_PIDNS@":
    sys.exit(3)
data = sys.stdin.read()
try:
    os.kill(-1, signal.SIGKILL)
except OSError:
    pass
sys.stdout.write(data)
