# BOJ 2580 Sudoku -- memory limit exceeded.
# Breadth-first search over partial boards: for the next blank, every board of the current level gets one
# child per digit that fits (each child a new 81-tuple), and every level is kept in `levels` (to "trace
# the answer back"). With few blanks the levels stay tiny, but on an open board (the empty one has 9!
# boards after the first row alone) millions of boards pile up and the memory runs out long before the
# time does.
import sys


def main():
    start = tuple(map(int, sys.stdin.read().split()[:81]))
    peers = []
    for i in range(81):
        r, c = divmod(i, 9)
        top, left = (r // 3) * 3, (c // 3) * 3
        group = {r * 9 + j for j in range(9)} | {j * 9 + c for j in range(9)}
        group |= {(top + a) * 9 + left + e for a in range(3) for e in range(3)}
        group.discard(i)
        peers.append(sorted(group))
    blanks = [i for i in range(81) if start[i] == 0]
    levels = [[start]]
    for cell in blanks:
        nxt = []
        for board in levels[-1]:
            used = {board[p] for p in peers[cell]}
            head, tail = board[:cell], board[cell + 1:]
            for digit in range(1, 10):
                if digit not in used:
                    nxt.append(head + (digit,) + tail)
        levels.append(nxt)
    answer = levels[-1][0]
    for r in range(9):
        print(" ".join(map(str, answer[r * 9:r * 9 + 9])))


main()
