import sys

numbers = sys.stdin.read().split()
print(numbers[1])
