# Many small allocations: a list of short strings that grows without end. Expected: MLE on every sandbox.
import ctypes

ctypes.CDLL(None).prctl(15, b"@TAG@", 0, 0, 0)
hoard = []
number = 0
while True:
    hoard.append(str(number) * 4)
    number += 1
