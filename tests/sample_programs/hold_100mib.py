# Holds 100 MiB with every page touched, for a moment, then exits cleanly.
import time

MIB = 1024 * 1024
block = bytearray(100 * MIB)
for offset in range(0, len(block), 4096):
    block[offset] = 1
time.sleep(0.2)
print(len(block) // MIB)
