# Uses no CPU: only the wall-time backstop can end it.
import time

time.sleep(60)
print("woke up")
