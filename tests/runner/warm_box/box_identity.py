# Prints what identifies the box it runs in (its PID namespace and its network namespace's cookie): the same for
# every test of a submission in a warm box, different for every test when each gets a box of its own. The inode
# number of a namespace alone is not enough: Linux 6.1 gives a new box's PID namespace the inode its freed
# predecessor had, while a network namespace's cookie is a counter the kernel never reuses. Given a name, it first
# leaves a file of that name in /box (tests/runner/test_launcher.py makes the launcher's reset fail on it).
import os
import socket
import struct
import sys

SO_NETNS_COOKIE = 71  # <asm-generic/socket.h>; Python names it only from 3.13

for name in sys.argv[1:]:
    open(os.path.join("/box", name), "w").close()
with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as probe:  # the only kind of socket a box may make
    cookie = struct.unpack("Q", probe.getsockopt(socket.SOL_SOCKET, SO_NETNS_COOKIE, 8))[0]
print(f"{os.readlink('/proc/self/ns/pid')}net:{cookie}")  # one token: a WA message shows the first
