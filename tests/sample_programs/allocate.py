# Allocates (and touches) the number of MiB given on stdin.
import sys

size = int(sys.stdin.read()) * 1024 * 1024
block = b"\x01" * size
print(len(block))
