# BOJ 9663 N-Queen -- wrong answer.
# The visited-array solution with one diagonal check missing: columns and "/" diagonals (row + col)
# are tracked, but the "\" diagonals (row - col) are never checked, so placements where two queens
# attack along a "\" diagonal are counted too (N = 2 gives 1 instead of 0, N = 4 gives far more than 2).
import sys

sys.setrecursionlimit(10000)

n = int(sys.stdin.readline())
col_used = [False] * n
slash_used = [False] * (2 * n - 1)
count = 0


def place(row):
    global count
    if row == n:
        count += 1
        return
    for col in range(n):
        # BUG: no check of the row - col diagonal
        if col_used[col] or slash_used[row + col]:
            continue
        col_used[col] = slash_used[row + col] = True
        place(row + 1)
        col_used[col] = slash_used[row + col] = False


place(0)
print(count)
