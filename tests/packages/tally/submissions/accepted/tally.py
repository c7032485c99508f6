import sys

numbers = sys.stdin.read().split()
print(sum(int(word) for word in numbers[1:]))
