# BOJ 2580 Sudoku -- time limit exceeded. [slow]: about 6 s to judge here (it runs into the limit)
# Brute force without pruning: every way to write 1..9 into the k blanks (9**k boards, via
# itertools.product) is written out in full and only then checked as a whole board. Correct, and fine
# for a board with one or two blanks, but hopeless for the sample (14 blanks: 9**14 boards) or an
# empty board (9**81).
import sys
from itertools import product


def is_valid(b):
    for i in range(9):
        if len(set(b[i * 9:i * 9 + 9])) != 9:
            return False
        if len(set(b[i::9])) != 9:
            return False
        top, left = (i // 3) * 3, (i % 3) * 3
        box = {b[(top + a) * 9 + left + e] for a in range(3) for e in range(3)}
        if len(box) != 9:
            return False
    return True


def main():
    board = list(map(int, sys.stdin.read().split()[:81]))
    blanks = [i for i in range(81) if board[i] == 0]
    for filling in product(range(1, 10), repeat=len(blanks)):
        for cell, digit in zip(blanks, filling):
            board[cell] = digit
        if is_valid(board):
            for r in range(9):
                print(" ".join(map(str, board[r * 9:r * 9 + 9])))
            return


main()
