# Re-opens its stdin through /proc/self/fd/0 for writing (the magic link reaches the judge's test input file,
# whatever mode the judge opened it with) and appends to it, then prints the input it was given (so AC).
# Expected: AC on every sandbox. Must NOT: change the test's .in file in the problem folder.
import ctypes
import sys

ctypes.CDLL(None).prctl(15, b"@TAG@", 0, 0, 0)
data = sys.stdin.read()
try:
    with open("/proc/self/fd/0", "ab") as handle:
        handle.write(b"pwned\n")
except OSError:
    pass
sys.stdout.write(data)
