# Prints the number of MiB given on stdin, as lines of 1023 'x' and a newline.
import sys

mib = int(sys.stdin.read())
line = "x" * 1023 + "\n"
out = sys.stdout
for _ in range(mib * 1024):
    out.write(line)
