"""A warm box's writable folders, reset between two tests (judge/runner/launcher/box_init.py `fresh_folders`):
every folder gets an empty tmpfs mounted as before, no old mount stays in the mount table, and the old ones go in
one detach (each detach is a sleep of the launcher), or, where a folder cannot be carried along, in one each.
Before that, no Unix socket of the test may be left in flight (`no_socket_left`).

Each case runs box_init in a mount namespace of its own (root only, as a warm box is), on three tmpfs standing for
/box, /tmp and /dev/shm, and counts its detaches through a wrapper of libc.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.skipif(os.geteuid() != 0 or shutil.which("unshare") is None,
                                reason="a mount namespace of its own needs root and unshare(1)")

# argv: the folder to work in, then what the test before left in the first folder ("file", "symlink" to a folder
# outside, or "full": no inode left). Prints the detaches counted, the folders' contents, and the mount table's
# entries under the folder, before and after.
RESET = """
import ctypes, json, os, sys
from judge.runner.launcher import box_init

root, left = sys.argv[1], sys.argv[2]
libc = ctypes.CDLL(None, use_errno=True)
paths = [os.path.join(root, name) for name in ("box", "tmp", "shm")]
outside = os.path.join(root, "outside")
os.mkdir(outside)
for path in paths:
    os.mkdir(path)
    options = "size=4m,mode=1777" + (",nr_inodes=4" if left == "full" and path == paths[0] else "")
    assert libc.mount(b"tmpfs", path.encode(), b"tmpfs", 6, options.encode()) == 0, ctypes.get_errno()
    open(os.path.join(path, "left-by-the-test"), "w").close()
if left == "symlink":
    os.symlink(outside, os.path.join(paths[0], box_init.CARRIED.format(0)))
elif left == "full":
    for number in range(10):
        try:
            os.mkdir(os.path.join(paths[0], f"d{number}"))
        except OSError:
            break

def mounts():
    with open("/proc/self/mountinfo") as table:
        return sorted(line.split()[4] for line in table if line.split()[4].startswith(root))

class Counting:
    def __init__(self):
        self.detaches = 0
    def __getattr__(self, name):
        return getattr(libc, name)
    def umount2(self, *args):
        self.detaches += 1
        return libc.umount2(*args)

before = mounts()
counting = Counting()
scratch = [box_init._as_mounted(path) for path in paths]
failures = box_init.fresh_folders(counting, scratch)
print(json.dumps({"failures": failures, "detaches": counting.detaches, "before": before, "after": mounts(),
                  "contents": [sorted(os.listdir(path)) for path in paths + [outside]],
                  "options before": [folder.options for folder in scratch],
                  "options after": [box_init._as_mounted(path).options for path in paths]}))
"""


def reset(tmp_path: Path, left: str) -> dict:
    done = subprocess.run(["unshare", "--mount", "--propagation", "private", sys.executable, "-c", RESET,
                           str(tmp_path), left], capture_output=True, text=True, cwd=REPO, timeout=60,
                          env={**os.environ, "PYTHONPATH": str(REPO)})
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_the_three_folders_are_reset_in_one_detach(tmp_path: Path) -> None:
    seen = reset(tmp_path, "file")
    assert seen["failures"] == []
    assert seen["detaches"] == 1
    assert seen["after"] == seen["before"]  # each folder once, nothing old left under another
    assert seen["contents"] == [[], [], [], []]
    assert seen["options after"] == seen["options before"]


@pytest.mark.parametrize("left", ["symlink", "full"])
def test_a_folder_that_cannot_be_carried_is_detached_on_its_own(tmp_path: Path, left: str) -> None:
    """A test's symlink where the reset would make its folder (the reset must never follow it), or a first
    folder with no inode left: the other folders are detached one by one, and the box is as clean."""
    seen = reset(tmp_path, left)
    assert seen["failures"] == []
    assert seen["detaches"] == {"symlink": 2, "full": 3}[left]
    assert seen["after"] == seen["before"]
    assert seen["options after"] == seen["options before"]
    assert seen["contents"] == [[], [], [], []]  # and nothing was mounted on the folder the symlink names


# argv: the folder (unused), then what is left in this network namespace of its own: "nothing", "in flight" (a
# socket pair sent into itself, no descriptor of it held: only the kernel's collector frees it) or "held" (a socket
# this process keeps open, which no collector frees). Prints what `no_socket_left` answers, with little patience.
SOCKETS_LEFT = """
import array, json, socket, sys
from judge.runner.launcher import box_init

left = sys.argv[2]
count = box_init.SocketCount()
if left != "nothing":
    one, other = socket.socketpair(socket.AF_UNIX, socket.SOCK_DGRAM)
    if left == "in flight":
        other.sendmsg([b"x"], [(socket.SOL_SOCKET, socket.SCM_RIGHTS, array.array("i", [other.fileno()]))])
        one.sendmsg([b"x"], [(socket.SOL_SOCKET, socket.SCM_RIGHTS, array.array("i", [one.fileno()]))])
        one.close()
        other.close()
print(json.dumps(box_init.no_socket_left(count, patience=0.2)))
"""


@pytest.mark.parametrize(("left", "failures"), [("nothing", 0), ("in flight", 0), ("held", 1)])
def test_no_socket_is_left_in_flight(tmp_path: Path, left: str, failures: int) -> None:
    """Sockets in flight, which no process holds, are collected before the next test; a socket still held (which
    cannot happen once every process of the test is gone) is reported, and the box then serves no other test."""
    done = subprocess.run(["unshare", "--net", sys.executable, "-c", SOCKETS_LEFT, str(tmp_path), left],
                          capture_output=True, text=True, cwd=REPO, timeout=60,
                          env={**os.environ, "PYTHONPATH": str(REPO)})
    assert done.returncode == 0, done.stderr
    assert len(json.loads(done.stdout)) == failures, done.stdout
