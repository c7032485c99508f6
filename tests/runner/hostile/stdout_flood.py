# Writes to stdout forever. Expected: OLE on every sandbox (RLIMIT_FSIZE stops it just past the output limit).
# Must NOT: fill the judge's disk, or run past the time limit.
import ctypes
import sys

ctypes.CDLL(None).prctl(15, b"@TAG@", 0, 0, 0)
line = b"y" * 65535 + b"\n"
while True:
    sys.stdout.buffer.write(line)
