# A CPU burner that also prints the CPU time the kernel has counted for it so far (time.process_time, which
# includes the interpreter's start), so a test can hold the judge's figure against the same run's: no noise.
import time

total = 0
for i in range(3_000_000):
    total += i
print(total)
print(f"{time.process_time():.6f}")
