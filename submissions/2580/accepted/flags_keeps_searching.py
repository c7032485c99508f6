# BOJ 2580 Sudoku -- accepted (models a solution BOJ accepted, with a slip that BOJ's data forgives). [slow]: 4 s
# Flags per row, column and box, the blanks in reading order, digits 1..9 tried in order, and the board
# printed when the last blank is filled. The slip: `if backtracking(depth + 1): return` returns None, so
# the caller above sees "not found", takes its digit back and goes on searching. Nothing more is printed
# (the last blank's flags stay set, so no second board can be completed), but the rest of the search
# tree is walked to the end. BOJ accepted this, so its tests never make that whole search long; ours must
# not either (validator.py bounds it), and this file must stay AC on them.
import sys

input = sys.stdin.readline

board = [list(map(int, input().split())) for _ in range(9)]
rows = [[False] * 10 for _ in range(9)]
cols = [[False] * 10 for _ in range(9)]
boxes = [[False] * 10 for _ in range(9)]
blanks = []

for i in range(9):
    for j in range(9):
        n = board[i][j]
        if n == 0:
            blanks.append((i, j))
        else:
            rows[i][n] = True
            cols[j][n] = True
            boxes[(i // 3) * 3 + j // 3][n] = True


def backtracking(depth):
    if depth == len(blanks):
        for row in board:
            print(*row)
        return True
    i, j = blanks[depth]
    b = (i // 3) * 3 + j // 3
    for n in range(1, 10):
        if not rows[i][n] and not cols[j][n] and not boxes[b][n]:
            rows[i][n] = True
            cols[j][n] = True
            boxes[b][n] = True
            board[i][j] = n
            if backtracking(depth + 1):
                return
            rows[i][n] = False
            cols[j][n] = False
            boxes[b][n] = False
            board[i][j] = 0


backtracking(0)
