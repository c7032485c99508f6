import sys

print(int(sys.stdin.readline()), flush=True)
