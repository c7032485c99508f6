# BOJ 9663 N-Queen -- run-time error.
# The visited-array solution with the "/" diagonal array sized n instead of 2n - 1. Once row + col
# reaches n (at the latest when the second row tries the last column), slash_used[row + col] raises an
# uncaught IndexError -- for every N >= 2; N = 1 never gets that far and prints 1.
# (The "\" array is indexed row - col + n - 1 and sized 2n - 1 correctly.)
import sys

sys.setrecursionlimit(10000)

n = int(sys.stdin.readline())
col_used = [False] * n
slash_used = [False] * n  # BUG: needs 2 * n - 1 entries
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
        col_used[col] = slash_used[row + col] = backslash_used[row - col + n - 1] = True
        place(row + 1)
        col_used[col] = slash_used[row + col] = backslash_used[row - col + n - 1] = False


place(0)
print(count)
