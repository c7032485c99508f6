# Creates a user and mount namespace of its own inside the box (where it would hold every capability again),
# mounts a tmpfs without a size limit over /box and writes 256 MiB into it, then prints
# `userns=<0|1>,mount=<0|1>,wrote=<MiB>`. Without a control group that memory is counted by no limit.
# Expected (bwrap): WA with userns=0 (bwrap --disable-userns). Never unconfined: there it acts as the judge's root.
import ctypes
import os
import sys

CLONE_NEWUSER, CLONE_NEWNS = 0x10000000, 0x00020000
libc = ctypes.CDLL(None, use_errno=True)
libc.prctl(15, b"@TAG@", 0, 0, 0)
if os.readlink("/proc/self/ns/pid") == "@HOST_PIDNS@":
    sys.exit(3)
outer_uid, outer_gid = os.getuid(), os.getgid()
userns = libc.unshare(CLONE_NEWUSER | CLONE_NEWNS) == 0
if userns:
    # Become root of the new namespace, so files can be created on the new mount.
    for name, text in (("setgroups", "deny"), ("uid_map", f"0 {outer_uid} 1"), ("gid_map", f"0 {outer_gid} 1")):
        try:
            with open(f"/proc/self/{name}", "w") as handle:
                handle.write(text)
        except OSError:
            pass
mounted = userns and libc.mount(b"none", b"/box", b"tmpfs", 0, None) == 0
written = 0
if mounted:
    chunk = b"x" * (512 * 1024)
    for index in range(512):
        try:
            with open(f"/box/fill{index}", "wb") as handle:
                handle.write(chunk)
        except OSError:
            break
        written += len(chunk)
print(f"userns={int(userns)},mount={int(mounted)},wrote={written // (1024 * 1024)}")
