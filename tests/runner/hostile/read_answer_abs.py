# Reads the answer file by its absolute host path and prints it (the test writes the path in).
# Expected: bwrap WA (the problem folder is not in the box); unconfined AC: it CAN read the answer (documented).
# Must NOT (bwrap): print the secret.
import ctypes

ctypes.CDLL(None).prctl(15, b"@TAG@", 0, 0, 0)
try:
    with open("@ANSWER_PATH@") as handle:
        print(handle.read().strip())
except OSError as error:
    print(f"unreadable:{error.errno}")
