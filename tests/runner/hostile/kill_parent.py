# Kills its parent with SIGKILL, then echoes the input. RUN ONLY IN A PID NAMESPACE: it refuses to act (exit 3)
# when its PID namespace is the host's, whose number the test writes in.
# Expected (bwrap): AC; the judge stays alive and reports it. Never run unconfined.
import ctypes
import os
import signal
import sys

ctypes.CDLL(None).prctl(15, b"@TAG@", 0, 0, 0)
if os.readlink("/proc/self/ns/pid") == "@HOST_PIDNS@":
    sys.exit(3)
try:
    os.kill(os.getppid(), signal.SIGKILL)
except OSError:
    pass
sys.stdout.write(sys.stdin.read())
