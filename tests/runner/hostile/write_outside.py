# Tries to write into the problem folder, the submission's folder, the judge's HOME (the real one, written in
# by the test, and $HOME), and the host's /tmp; then echoes the input (so AC).
# Expected: AC on every sandbox. Must NOT (bwrap): change any file outside the box. Unconfined it CAN (documented).
import ctypes
import os
import sys

ctypes.CDLL(None).prctl(15, b"@TAG@", 0, 0, 0)
targets = ["@PROBLEM_DIR@/tests/sample1.ans", "@PROBLEM_DIR@/pwned", "@SUBMISSION_DIR@/pwned",
           "@FAKE_HOME@/.bashrc", "@FAKE_HOME@/pwned", "@HOST_TMP_MARK@", os.path.expanduser("~/pwned")]
for target in targets:
    try:
        with open(target, "a") as handle:
            handle.write("pwned\n")
    except OSError:
        pass
sys.stdout.write(sys.stdin.read())
