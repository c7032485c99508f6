import sys

numbers = [int(word) for word in sys.stdin.read().split()]
print(sum(abs(number) for number in numbers[1:]))
