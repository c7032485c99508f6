# BOJ 2580 Sudoku -- output limit exceeded.
# Solves the board correctly (flags per row, column and box), but the printing loop is a `while` whose
# counter is never increased, so the first row is printed again and again without end.
import sys


def main():
    tokens = sys.stdin.read().split()
    board = [[int(tokens[r * 9 + c]) for c in range(9)] for r in range(9)]
    row_used = [[False] * 10 for _ in range(9)]
    col_used = [[False] * 10 for _ in range(9)]
    box_used = [[False] * 10 for _ in range(9)]
    blanks = []
    for r in range(9):
        for c in range(9):
            d = board[r][c]
            if d:
                row_used[r][d] = col_used[c][d] = box_used[(r // 3) * 3 + c // 3][d] = True
            else:
                blanks.append((r, c, (r // 3) * 3 + c // 3))

    def solve(k):
        if k == len(blanks):
            return True
        r, c, b = blanks[k]
        for d in range(1, 10):
            if not (row_used[r][d] or col_used[c][d] or box_used[b][d]):
                row_used[r][d] = col_used[c][d] = box_used[b][d] = True
                board[r][c] = d
                if solve(k + 1):
                    return True
                row_used[r][d] = col_used[c][d] = box_used[b][d] = False
        board[r][c] = 0
        return False

    solve(0)
    r = 0
    while r < 9:
        print(" ".join(map(str, board[r])))
        # BUG: forgot `r += 1`


main()
