# BOJ 9663 N-Queen -- accepted. [slow]: about 7 s of CPU at N = 14 in CPython (limit 32 s)
# A Python port of the well-known Java solution: one queen per row, placed recursively, with three visited
# arrays -- columns, "/" diagonals (row + col) and "\" diagonals (row - col + n - 1) -- set before going one
# row deeper and cleared on the way back. The plain port needs 13 s here and more than 32 s on a slower CI
# machine, so like many Python solutions it halves the search with the board's mirror symmetry.
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


# A placement and its mirror image differ, so the first queen tries only the left half of the first row and
# every count found there is doubled; for odd n the middle column, its own mirror, is counted once.
for first in range(n // 2):
    col_used[first] = slash_used[first] = backslash_used[n - 1 - first] = True
    place(1)
    col_used[first] = slash_used[first] = backslash_used[n - 1 - first] = False
mirrored, count = count, 0
if n % 2 == 1:
    place_middle = n // 2
    col_used[place_middle] = slash_used[place_middle] = backslash_used[n - 1 - place_middle] = True
    place(1)
print(2 * mirrored + count)
