# Sudoku, wrong: the column check scans rows 0-7 only, so a clue in the last row is missed.
import sys

board = [[int(token) for token in line.split()] for line in sys.stdin.read().strip().splitlines()]
blanks = [(r, c) for r in range(9) for c in range(9) if board[r][c] == 0]


def fits(r, c, d):
    if d in board[r]:
        return False
    for i in range(8):
        if board[i][c] == d:
            return False
    top, left = r // 3 * 3, c // 3 * 3
    return all(board[top + i][left + j] != d for i in range(3) for j in range(3))


def solve(k):
    if k == len(blanks):
        return True
    r, c = blanks[k]
    for d in range(1, 10):
        if fits(r, c, d):
            board[r][c] = d
            if solve(k + 1):
                return True
            board[r][c] = 0
    return False


solve(0)
print("\n".join(" ".join(map(str, row)) for row in board))
