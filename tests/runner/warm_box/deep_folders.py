# Leaves in /tmp as many nested folders as its input asks for (each made from inside the one before: the path
# soon passes PATH_MAX), for whatever clears the box after a test. Prints "left".
import os

depth = int(input())
os.chdir("/tmp")
for _ in range(depth):
    os.mkdir("d")
    os.chdir("d")
print("left")
