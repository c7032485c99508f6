# BOJ 2580 Sudoku -- run-time error.
# The blank-list backtracking solution, but the recursion reads blanks[depth] *before* testing whether
# depth has reached the end of the list. When the last blank is filled, blanks[len(blanks)] raises an
# uncaught IndexError instead of printing the board (and a board with no blank crashes at once).
import sys

board = []
blanks = []


def can_place(row, col, digit):
    for i in range(9):
        if board[row][i] == digit or board[i][col] == digit:
            return False
    top, left = (row // 3) * 3, (col // 3) * 3
    for i in range(top, top + 3):
        for j in range(left, left + 3):
            if board[i][j] == digit:
                return False
    return True


def dfs(depth):
    row, col = blanks[depth]  # BUG: IndexError once depth == len(blanks)
    if depth == len(blanks):
        for line in board:
            print(" ".join(map(str, line)))
        sys.exit(0)
    for digit in range(1, 10):
        if can_place(row, col, digit):
            board[row][col] = digit
            dfs(depth + 1)
            board[row][col] = 0


tokens = sys.stdin.read().split()
for r in range(9):
    board.append([int(tokens[r * 9 + c]) for c in range(9)])
for r in range(9):
    for c in range(9):
        if board[r][c] == 0:
            blanks.append((r, c))
dfs(0)
