# Hides a number in the port of a TCP connection it closes first (the closing side stays in TIME_WAIT for a
# minute, whatever becomes of the process), after looking for such a socket left by an earlier test in
# /proc/net/tcp (state 06), as `ss -t state time-wait` would. Prints "none" when it found none.
import socket

TIME_WAIT = "06"
found = []
for line in open("/proc/net/tcp").readlines()[1:]:
    fields = line.split()
    if fields[3] == TIME_WAIT:
        found.append(str(int(fields[1].split(":")[1], 16)))
try:
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen()
        client = socket.create_connection(listener.getsockname())
        server, _ = listener.accept()
        client.close()  # first: the client's end is the one left in TIME_WAIT
        server.recv(1)
        server.close()
except OSError:
    pass  # a box refuses IP sockets: what matters is that no test finds one left by another
print(" ".join(sorted(found)) if found else "none")
