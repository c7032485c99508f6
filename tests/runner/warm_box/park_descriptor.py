# Input "send:WORD": carry WORD to the next test through a descriptor no process holds. Takes byte-range read locks
# on its own file (F_OFD_SETLK, one per byte of WORD, at 512 * position + byte) and binds an abstract socket name,
# then sends the socket and the file's descriptor over a socket pair into itself (SCM_RIGHTS) and exits: the pair
# is "in flight", so killing every process of the test frees it only when the kernel's collector runs (apart and
# later from Linux 6.10), and meanwhile its locks and its name stay. Input "read": print what locks it finds on
# its file and whether the name is taken ("got:WORD/name-taken"); in a box of its own a test finds "got:/name-free".
import array
import fcntl
import os
import socket
import struct

F_OFD_GETLK, F_OFD_SETLK = 36, 37
NAME = b"\0judge-parked"


def lock(kind: int, start: int, length: int) -> bytes:
    return struct.pack("hhqqi4x", kind, 0, start, length, 0)  # struct flock


own_file = os.open(__file__, os.O_RDONLY)
word = input().strip()
if word.startswith("send:"):
    for position, byte in enumerate(word[5:].encode()):
        fcntl.fcntl(own_file, F_OFD_SETLK, lock(fcntl.F_RDLCK, 512 * position + byte, 1))
    left, right = socket.socketpair(socket.AF_UNIX, socket.SOCK_DGRAM)
    named = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    named.bind(NAME)
    right.sendmsg([b"x"], [(socket.SOL_SOCKET, socket.SCM_RIGHTS, array.array("i", [right.fileno()]))])
    left.sendmsg([b"x"], [(socket.SOL_SOCKET, socket.SCM_RIGHTS,
                           array.array("i", [left.fileno(), own_file, named.fileno()]))])
    print("sent")
else:
    found, start = [], 0
    while True:
        kind, _, begins, length, _ = struct.unpack(
            "hhqqi4x", fcntl.fcntl(own_file, F_OFD_GETLK, lock(fcntl.F_WRLCK, start, 0)))
        if kind == fcntl.F_UNLCK:
            break
        found.append(begins % 512)
        start = begins + length
    try:
        socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM).bind(NAME)
        name = "name-free"
    except OSError:
        name = "name-taken"
    print(f"got:{bytes(found).decode(errors='replace')}/{name}")
