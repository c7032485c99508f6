# BOJ 2580 Sudoku -- wrong answer.
# Used-digit flags per row, column and box, but the flags are not cleared when a digit is taken back
# while backtracking (the "undo" line is missing). After the first dead end, digits that are no longer
# on the board still count as used, the search can no longer find the solution, and the half-filled
# board (with zeros in it) is printed.
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
                blanks.append((r, c))

    def solve(k):
        if k == len(blanks):
            return True
        r, c = blanks[k]
        b = (r // 3) * 3 + c // 3
        for d in range(1, 10):
            if not (row_used[r][d] or col_used[c][d] or box_used[b][d]):
                row_used[r][d] = col_used[c][d] = box_used[b][d] = True
                board[r][c] = d
                if solve(k + 1):
                    return True
                board[r][c] = 0
                # BUG: row_used / col_used / box_used for d are never set back to False here.
        return False

    solve(0)
    for row in board:
        print(" ".join(map(str, row)))


main()
