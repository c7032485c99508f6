# N-Queen, wrong: diagonals are checked against the row just above only (columns against every row).
import sys

n = int(sys.stdin.readline())
queens = []


def safe(col):
    row = len(queens)
    for i in range(row):
        if queens[i] == col or (i == row - 1 and abs(queens[i] - col) == 1):
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
