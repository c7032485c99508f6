# Reads the answer file by relative paths: from the working folder to the host path, and the usual guesses.
# Expected: bwrap WA; unconfined AC: it CAN read the answer (documented). Must NOT (bwrap): print the secret.
import ctypes
import os

ctypes.CDLL(None).prctl(15, b"@TAG@", 0, 0, 0)
guesses = [os.path.relpath("@ANSWER_PATH@")]
guesses += ["../" * depth + suffix for depth in range(6) for suffix in ("tests/sample1.ans", "sample1.ans")]
for guess in guesses:
    try:
        with open(guess) as handle:
            print(handle.read().strip())
            break
    except OSError:
        continue
else:
    print("unreadable")
