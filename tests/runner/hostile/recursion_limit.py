# sys.setrecursionlimit(10**9), then unbounded recursion in plain Python.
# Expected: MLE (Python frames live on the heap) or RE (the C stack overflows: SIGSEGV). Must NOT: hang.
import ctypes
import sys

ctypes.CDLL(None).prctl(15, b"@TAG@", 0, 0, 0)
sys.setrecursionlimit(10**9)


def down(depth):
    return down(depth + 1) + 1


print(down(0))
