# sys.setrecursionlimit(10**9), then a C-level recursion: the json decoder on 10 million nested lists, which
# recurses on the C stack and no longer stops at the recursion limit.
# Expected: RE (SIGSEGV when the C stack overflows) or MLE. Must NOT: hang or crash the judge.
import ctypes
import json
import sys

ctypes.CDLL(None).prctl(15, b"@TAG@", 0, 0, 0)
sys.setrecursionlimit(10**9)
print(len(json.loads("[" * 10_000_000 + "]" * 10_000_000)))
