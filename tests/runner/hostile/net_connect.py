# Connects to a TCP server the test runs on 127.0.0.1; the server sends the secret, which this prints.
# Expected: bwrap WA (no network in the box; the server sees no connection); unconfined AC (documented).
import ctypes
import socket

ctypes.CDLL(None).prctl(15, b"@TAG@", 0, 0, 0)
try:
    with socket.create_connection(("127.0.0.1", int("@PORT@")), timeout=2) as connection:
        print(connection.makefile().readline().strip())
except OSError as error:
    print(f"unreachable:{error.errno}")
