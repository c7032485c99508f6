# BOJ 2580 Sudoku -- accepted. [slow]: about 9 s to judge here (every test, no pruning)
# A faithful Python port of the well-known Java solution: collect the blank cells in reading order,
# then a recursive search that tries 1..9 in the next blank, checking the row, the column and the
# 3x3 box by scanning all nine cells of each, and that prints the board and exits at the first
# full board (the Java original calls System.exit(0)). Slow on purpose: no pruning tricks at all.
import sys

board = []
blanks = []


def can_place(row, col, digit):
    for i in range(9):
        if board[row][i] == digit:
            return False
    for i in range(9):
        if board[i][col] == digit:
            return False
    top = (row // 3) * 3
    left = (col // 3) * 3
    for i in range(top, top + 3):
        for j in range(left, left + 3):
            if board[i][j] == digit:
                return False
    return True


def dfs(depth):
    if depth == len(blanks):
        out = []
        for row in board:
            out.append(" ".join(str(v) for v in row))
        sys.stdout.write("\n".join(out) + "\n")
        sys.stdout.flush()
        sys.exit(0)
    row, col = blanks[depth]
    for digit in range(1, 10):
        if can_place(row, col, digit):
            board[row][col] = digit
            dfs(depth + 1)
            board[row][col] = 0


def main():
    tokens = sys.stdin.read().split()
    for r in range(9):
        board.append([int(tokens[r * 9 + c]) for c in range(9)])
    for r in range(9):
        for c in range(9):
            if board[r][c] == 0:
                blanks.append((r, c))
    dfs(0)


main()
