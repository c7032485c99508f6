# Looks for folders of the host named in the box's mount table: a bind mount's root field (the fourth in
# /proc/self/mountinfo) is the path of the mounted folder in its file system, e.g. in the judge's temporary folder
# or its own code. A root that is "/" (a file system of the box's own) or that names what the box shows at that
# same place (/usr, a device of /dev, a folder of /proc) gives nothing away. Prints "clean", or each mount point
# and the path it gives away.
import os

SEEN_AT = {"proc": "/proc", "devtmpfs": "/dev"}  # where the box shows the root of these file systems
named = []
for line in open("/proc/self/mountinfo"):
    mounted, _, source = line.partition(" - ")
    root, mount_point = mounted.split()[3:5]
    if root in ("/", "/newroot"):  # bwrap's own root, a tmpfs it made and moved to /
        continue
    shown = SEEN_AT.get(source.split()[0], "") + root
    try:
        if os.path.samefile(shown, mount_point):
            continue
    except OSError:
        pass
    named.append(f"{mount_point}<-{root}")
print(" ".join(named) if named else "clean")
