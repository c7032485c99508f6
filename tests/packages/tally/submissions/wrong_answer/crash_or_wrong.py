import sys

numbers = [int(word) for word in sys.stdin.read().split()]
if numbers[0] == 1:
    raise SystemExit("a single number is not a list")
print(sum(numbers[1:]) + 1)
