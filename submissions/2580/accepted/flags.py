# BOJ 2580 Sudoku -- accepted.
# Backtracking over the blank cells in reading order, with a used-digit flag table for every row,
# every column and every 3x3 box, so a digit is tested in O(1) instead of scanning 27 cells.
# Placing a digit sets three flags; undoing it on the way back clears them again.
import sys


def main():
    tokens = sys.stdin.read().split()
    board = [[int(tokens[r * 9 + c]) for c in range(9)] for r in range(9)]
    # row_used[r][d] is True when digit d already sits in row r (index 0 unused).
    row_used = [[False] * 10 for _ in range(9)]
    col_used = [[False] * 10 for _ in range(9)]
    box_used = [[False] * 10 for _ in range(9)]
    blanks = []
    for r in range(9):
        for c in range(9):
            d = board[r][c]
            if d:
                row_used[r][d] = True
                col_used[c][d] = True
                box_used[(r // 3) * 3 + c // 3][d] = True
            else:
                blanks.append((r, c, (r // 3) * 3 + c // 3))
    total = len(blanks)

    def solve(k):
        if k == total:
            return True
        r, c, b = blanks[k]
        ru, cu, bu = row_used[r], col_used[c], box_used[b]
        for d in range(1, 10):
            if not (ru[d] or cu[d] or bu[d]):
                ru[d] = cu[d] = bu[d] = True
                board[r][c] = d
                if solve(k + 1):
                    return True
                ru[d] = cu[d] = bu[d] = False
        board[r][c] = 0
        return False

    solve(0)
    sys.stdout.write("\n".join(" ".join(map(str, row)) for row in board) + "\n")


main()
