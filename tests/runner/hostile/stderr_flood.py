# Writes to stderr forever. Expected: OLE on every sandbox. Must NOT: fill the judge's disk or its memory.
import ctypes
import os

ctypes.CDLL(None).prctl(15, b"@TAG@", 0, 0, 0)
line = b"e" * 65535 + b"\n"
while True:
    os.write(2, line)
