# Closes stdout, then spins forever. Expected: TLE on every sandbox (the judge waits for the process, not for
# end of file on its output). Must NOT: hang the judge past the CPU limit.
import ctypes
import os

ctypes.CDLL(None).prctl(15, b"@TAG@", 0, 0, 0)
os.close(1)
while True:
    pass
