"""The launcher's messages (server.py) and the judge's (client.py): one SOCK_SEQPACKET packet each, a dict with
open descriptors attached. Both ends import this module, the launcher from inside a box: standard library only,
and of it only what starts fast (tests/runner/test_launcher_imports.py)."""

from __future__ import annotations

# The C module beneath `socket`: socket.py adds only enums and helpers neither end uses, and its imports
# (selectors) cost about 1.5 ms of every launcher's start.
import _socket as socket
import marshal
import struct

MAX_MESSAGE = 1 << 20
MAX_FDS = 16
FD_BYTES = struct.calcsize("i")
MARSHAL_VERSION = 4
"""Messages are dicts of str, int, float, bool, None, lists and tuples, in `marshal`'s format 4, which every
Python since 3.4 reads: the judge and its launcher may run on different Pythons. `marshal` (built into the
interpreter) because `json` costs a launcher 3-4 ms of its start (re, enum); it is not for untrusted bytes, and
none reach it: each end of the socket pair is the judge's own code, and no run ever holds one (close-on-exec)."""


def receive(sock: socket.socket) -> tuple[dict, list[int]]:
    """One message and the descriptors attached to it; ({}, []) when the other end closed."""
    # Close-on-exec: a descriptor received must never reach a run unless it is made one of its streams.
    data, ancillary, _, _ = sock.recvmsg(MAX_MESSAGE, socket.CMSG_SPACE(MAX_FDS * FD_BYTES), socket.MSG_CMSG_CLOEXEC)
    fds: list[int] = []
    for level, kind, payload in ancillary:
        if level == socket.SOL_SOCKET and kind == socket.SCM_RIGHTS:
            fds += struct.unpack(f"{len(payload) // FD_BYTES}i", payload[: len(payload) - len(payload) % FD_BYTES])
    return (marshal.loads(data) if data else {}), fds


def send(sock: socket.socket, message: dict, fds: list[int] = ()) -> None:  # type: ignore[assignment]
    ancillary = [(socket.SOL_SOCKET, socket.SCM_RIGHTS, struct.pack(f"{len(fds)}i", *fds))] if fds else []
    sock.sendmsg([marshal.dumps(message, MARSHAL_VERSION)], ancillary)
