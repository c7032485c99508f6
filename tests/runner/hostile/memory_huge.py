# One huge allocation: 8 GiB, zero-filled (so every page is touched). Expected: MLE on every sandbox.
# Must NOT: push the machine into swap or the global OOM killer.
import ctypes

ctypes.CDLL(None).prctl(15, b"@TAG@", 0, 0, 0)
block = bytearray(8 * 1024**3)
print(len(block))
