# N-Queen, wrong: a new queen is checked against every earlier row but the one just above it.
import sys

n = int(sys.stdin.readline())
queens = []


def safe(col):
    row = len(queens)
    for i in range(row - 1):
        if queens[i] == col or abs(queens[i] - col) == row - i:
            return False
    return True


def place():
    if len(queens) == n:
        return 1
    total = 0
    for col in range(n):
        if safe(col):
            queens.append(col)
            total += place()
            queens.pop()
    return total


print(place())
