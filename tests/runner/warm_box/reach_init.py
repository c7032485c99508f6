# Goes for the process that starts the tests of a box (its PID 1): signals, ptrace, its memory, its files in
# /proc, its open descriptors. Prints "untouched" when every attempt failed (a signal counts when PID 1 is found
# stopped or dead after it); the tests after it prove that whatever starts them still works.
import ctypes
import os
import signal


def state_of_pid_1() -> str:
    """Its state letter; "S" where its /proc entry is closed to the program (nothing to see, nothing reached)."""
    try:
        return open("/proc/1/stat").read().rsplit(")", 1)[1].split()[0]
    except OSError:
        return "S"


reached = []
for number in (signal.SIGKILL, signal.SIGTERM, signal.SIGSTOP, signal.SIGSEGV):
    try:
        os.kill(1, number)  # with the program's uid (a judge that is not root) this returns 0: a PID 1 ignores it
    except OSError:
        pass
    if state_of_pid_1() not in "RSD":  # stopped, traced, a zombie: the signal did reach it
        reached.append(f"signal{number}")
libc = ctypes.CDLL(None, use_errno=True)
if libc.ptrace(16, 1, None, None) == 0:  # PTRACE_ATTACH
    reached.append("ptrace")
# Reading its environment, map and descriptors counts where PID 1 runs as another uid (the root box's launcher). A
# PID 1 of the program's own uid is bwrap itself, in a judge that is not root: the kernel lets the program read its
# entries, and they hold only what the program holds (the box's environment, its standard streams, an eventfd).
try:
    readable_by_right = f"Uid:\t{os.getuid()}\t" in open("/proc/1/status").read()
except OSError:
    readable_by_right = False
for name, mode in (("mem", "r+b"), ("environ", "rb"), ("maps", "rb"), ("oom_score_adj", "w"), ("fd", None),
                   ("root", None), ("cwd", None)):
    if readable_by_right and mode in ("rb", None):
        continue
    path = f"/proc/1/{name}"
    try:
        if mode is None:
            os.listdir(path)
        else:
            with open(path, mode) as handle:
                handle.read(1) if "b" in mode and "+" not in mode else handle.write(b"\0" if "b" in mode else "0")
        reached.append(name)
    except OSError:
        pass
print("reached-" + "-".join(reached) if reached else "untouched")
