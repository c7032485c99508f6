# BOJ 2580 Sudoku -- memory limit exceeded. [slow]: about 5 s to judge here (its tests up to the MLE)
# Breadth-first search over partial boards: for the next blank, every board of the current level gets one
# child per digit that fits (each child a new 81-tuple, kept with a 2 KiB bytearray of notes "for later"), and
# every level is kept in `levels` (to "trace the answer back"). With few blanks the levels stay tiny, but on an
# open board millions of boards pile up and the memory runs out long before the time does: at about 1.3 s of
# the 5 s a Python submission gets (without the notes, the boards alone reached the limit at 3.8-4.5 s, and
# once under load at over 5 s: a TLE).
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
    levels = [[(start, bytearray(2048))]]
    for cell in blanks:
        nxt = []
        for board, _ in levels[-1]:
            used = {board[p] for p in peers[cell]}
            head, tail = board[:cell], board[cell + 1:]
            for digit in range(1, 10):
                if digit not in used:
                    child = head + (digit,) + tail
                    nxt.append((child, bytearray(2048)))
        levels.append(nxt)
    answer = levels[-1][0][0]
    for r in range(9):
        print(" ".join(map(str, answer[r * 9:r * 9 + 9])))


main()
