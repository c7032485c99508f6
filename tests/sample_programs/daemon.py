# Escapes the way a daemon does: fork, setsid, fork again, then exec a sleeper whose argv carries the marker read
# from stdin. The parent exits cleanly only once the sleeper runs, so the judge has something real to clean up.
import os
import sys
import time

marker = sys.stdin.readline().strip()
sleeper = [sys.executable, "-c", "import time; time.sleep(120)", marker]
first = os.fork()
if first == 0:
    os.setsid()
    if os.fork() == 0:
        os.execv(sys.executable, sleeper)
    os._exit(0)
os.waitpid(first, 0)
deadline = time.monotonic() + 5
while time.monotonic() < deadline:
    for pid in os.listdir("/proc"):
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as handle:
                if marker.encode() in handle.read():
                    print("daemon started")
                    sys.exit(0)
        except OSError:
            continue
    time.sleep(0.01)
print("daemon did not start")
