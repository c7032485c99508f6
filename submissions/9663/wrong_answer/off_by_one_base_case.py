# BOJ 9663 N-Queen -- wrong answer.
# Off by one in N: the recursion counts a solution when row == n - 1, i.e. as soon as n - 1 queens are
# placed, before the last row is even tried. It counts the placements of n - 1 queens instead
# (right only for N = 1; N = 2 gives 2 instead of 0, N = 8 gives 312 instead of 92).
import sys

sys.setrecursionlimit(10000)

n = int(sys.stdin.readline())
col_used = [False] * n
slash_used = [False] * (2 * n - 1)
backslash_used = [False] * (2 * n - 1)
count = 0


def place(row):
    global count
    if row == n - 1:  # BUG: should be row == n
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
