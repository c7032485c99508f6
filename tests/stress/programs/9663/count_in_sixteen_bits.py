# N-Queen, wrong: the count is kept in 16 bits (as an unsigned short in C would be), so it wraps from N = 13 on.
import sys

n = int(sys.stdin.readline())
queens = []


def safe(col):
    row = len(queens)
    for i in range(row):
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
            total = (total + place()) % 65536
            queens.pop()
    return total


print(place())
