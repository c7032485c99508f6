import sys

print(sum(int(word) for word in sys.stdin.read().split()), flush=True)
