# Reads stdin forever, long after it is exhausted. Expected: TLE on every sandbox. Must NOT: hang the judge.
import ctypes
import sys

ctypes.CDLL(None).prctl(15, b"@TAG@", 0, 0, 0)
total = 0
while True:
    total += len(sys.stdin.buffer.read(1))
