# Prints what identifies the box it runs in (its network namespace): the same for every test of a submission
# in a warm box, different for every test when each gets a box of its own.
import os
print(os.readlink("/proc/self/ns/net"))
