# BOJ 9663 N-Queen -- accepted. [slow]: about 17 s of CPU at N = 14 in CPython
# A faithful Python port of the well-known Java solution: one queen per row, placed recursively, with
# three visited arrays -- columns, "/" diagonals (row + col) and "\" diagonals (row - col + n - 1) --
# set before going one row deeper and cleared on the way back. Counts every full placement.
import sys

sys.setrecursionlimit(10000)

n = int(sys.stdin.readline())
col_used = [False] * n
slash_used = [False] * (2 * n - 1)
backslash_used = [False] * (2 * n - 1)
count = 0


def place(row):
    global count
    if row == n:
        count += 1
        return
    for col in range(n):
        if col_used[col] or slash_used[row + col] or backslash_used[row - col + n - 1]:
            continue
        col_used[col] = True
        slash_used[row + col] = True
        backslash_used[row - col + n - 1] = True
        place(row + 1)
        col_used[col] = False
        slash_used[row + col] = False
        backslash_used[row - col + n - 1] = False


place(0)
print(count)
