# Stops itself with SIGSTOP, and nobody will continue it. Expected: TLE (the wall limit) on every sandbox.
# Must NOT: hang the judge, or leave the stopped process behind (SIGKILL ends a stopped process too).
import ctypes
import os
import signal

ctypes.CDLL(None).prctl(15, b"@TAG@", 0, 0, 0)
os.kill(os.getpid(), signal.SIGSTOP)
print("continued")
