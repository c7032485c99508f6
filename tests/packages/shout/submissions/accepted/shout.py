import sys

for line in sys.stdin:
    print(line.upper(), end="")
