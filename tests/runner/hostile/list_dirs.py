# Lists `..` and `/`, and looks around for the judge's files; prints one token of what it could see:
#   problem=<0|1> the problem folder exists, home=<0|1> the judge's HOME exists, work=<0|1> /work is visible,
#   hosttmp=<0|1> /tmp holds files it did not make, up=<n> entries in `..`, root=<n> entries in `/`.
# Expected: WA on every sandbox; under bwrap every flag is 0. Must NOT (bwrap): see any host folder.
import ctypes
import os

ctypes.CDLL(None).prctl(15, b"@TAG@", 0, 0, 0)


def count(path):
    try:
        return len(os.listdir(path))
    except OSError:
        return -1


flags = {
    "problem": os.path.isdir("@PROBLEM_DIR@"),
    "home": os.path.isdir("@FAKE_HOME@"),
    "work": os.path.isdir("/work"),
    "hosttmp": count("/tmp") > 0,
}
token = ",".join(f"{key}={int(value)}" for key, value in flags.items())
print(f"{token},up={count('..')},root={count('/')}")
print("/:", " ".join(sorted(os.listdir("/"))))
print("..:", " ".join(sorted(os.listdir(".."))))
