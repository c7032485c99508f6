# Daemon: double-forks, calls setsid and keeps running after main exits; main echoes the input (so AC).
# The daemon waits a second, then tries to write into the problem folder, to catch a judge that lets it live.
# Expected: AC on every sandbox. Must NOT: the daemon survive the run, or the file appear in the problem folder.
import ctypes
import os
import sys
import time

ctypes.CDLL(None).prctl(15, b"@TAG@", 0, 0, 0)
data = sys.stdin.read()
if os.fork() == 0:
    os.setsid()
    if os.fork() == 0:
        for fd in (0, 1, 2):
            os.close(fd)
        time.sleep(1.0)
        try:
            with open("@PROBLEM_DIR@/daemon-was-here", "w") as handle:
                handle.write("escaped\n")
        except OSError:
            pass
        while True:
            time.sleep(0.1)
    os._exit(0)
os.wait()
sys.stdout.write(data)
