# BOJ 2580 Sudoku -- wrong answer.
# Used-digit flags per row, column and box, with the box index computed wrong: (r // 3) * 3 + c % 3
# instead of (r // 3) * 3 + c // 3 (a % typed for a //). The nine "boxes" it checks are the cells of a
# band that share c % 3, not the real 3x3 boxes, so it either prints a board that breaks a real box or
# finds no completion at all and prints the board with its blanks still 0.
import sys


def box_of(r, c):
    return (r // 3) * 3 + c % 3  # BUG: must be c // 3


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
                row_used[r][d] = col_used[c][d] = box_used[box_of(r, c)][d] = True
            else:
                blanks.append((r, c, box_of(r, c)))

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
    for row in board:
        print(" ".join(map(str, row)))


main()
