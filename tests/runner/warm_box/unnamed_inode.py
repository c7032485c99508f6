# Makes no file a folder lists: opens an unnamed one (O_TMPFILE) in the writable folder its input names, and prints
# that inode's number. A tmpfs numbers its inodes from a counter of its own, so if the folder were kept for the
# next test because nothing was seen in it, that test would print a higher number: in a box of its own every test
# prints the same.
import os

folder = input().strip()
descriptor = os.open(folder, os.O_TMPFILE | os.O_RDWR, 0o600)
print(os.fstat(descriptor).st_ino)
