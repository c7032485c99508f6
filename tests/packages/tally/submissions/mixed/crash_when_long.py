import sys

numbers = [int(word) for word in sys.stdin.read().split()]
if numbers[0] > 100:
    raise SystemExit("too many numbers for this one")
print(sum(numbers[1:]))
