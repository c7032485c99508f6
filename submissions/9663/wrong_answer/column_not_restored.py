# BOJ 9663 N-Queen -- wrong answer.
# The visited-array solution, but on the way back only the two diagonal flags are cleared: the column
# flag stays set, so a column that was tried once is closed for every later branch and most solutions
# are never reached (N = 4 gives 0 instead of 2, N = 8 gives 0 instead of 92).
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
        col_used[col] = slash_used[row + col] = backslash_used[row - col + n - 1] = True
        place(row + 1)
        slash_used[row + col] = backslash_used[row - col + n - 1] = False
        # BUG: col_used[col] is not set back to False


place(0)
print(count)
