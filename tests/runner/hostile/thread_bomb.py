# Thread bomb: starts sleeping threads until the process or thread limit refuses one.
# Expected: RE ("can't start new thread" once the pids limit or RLIMIT_AS stops it), TLE at worst.
# Must NOT: create more tasks than the limit, or leave the process behind.
import ctypes
import threading
import time

ctypes.CDLL(None).prctl(15, b"@TAG@", 0, 0, 0)


def sleeper():
    while True:
        time.sleep(1)


while True:
    threading.Thread(target=sleeper, daemon=True).start()
