# Leaves a process behind for the next test of the same submission: a double-forked daemon in a session of its
# own that ignores every signal it can, holds an abstract socket and renames itself to the tag on its input.
# A later test looks for it (any other process in /proc, or the socket). Prints "alone" when it found nothing.
import ctypes
import os
import signal
import socket
import time

tag = input().strip().encode()
others = [name for name in os.listdir("/proc") if name.isdigit() and int(name) not in (1, os.getpid())]
probe = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
try:
    probe.connect("\0judge-left-behind")
    others.append("socket")
except OSError:
    pass
if os.fork() == 0:
    os.setsid()
    if os.fork() == 0:
        ctypes.CDLL(None).prctl(15, tag, 0, 0, 0)  # PR_SET_NAME: what the test searches the host for
        for number in range(1, signal.NSIG):
            try:
                signal.signal(number, signal.SIG_IGN)
            except (OSError, ValueError):
                pass
        listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        listener.bind("\0judge-left-behind")
        listener.listen()
        while True:
            time.sleep(1)
    os._exit(0)
os.wait()
time.sleep(0.2)  # the daemon is up before this test ends
print("found " + " ".join(sorted(others)) if others else "alone")
