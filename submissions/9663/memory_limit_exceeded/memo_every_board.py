# BOJ 9663 N-Queen -- memory limit exceeded. [slow]: about 7 s to judge here (its tests up to the MLE)
# Recursion that "memoizes" every partial placement: the key is the tuple of queen columns so far, and
# the value is a fresh N x N board (a list of N lists) drawn for that placement. No key ever repeats,
# so nothing is reused; the dict just grows by one board per node of the search. Harmless for small N,
# but N = 11 already has about 166,000 nodes (a few hundred MiB of boards) and N = 14 has millions.
import sys

sys.setrecursionlimit(10000)


def main():
    n = int(sys.stdin.readline())
    memo = {}

    def solve(queens):
        key = tuple(queens)
        if key in memo:
            return memo[key][0]
        board = [[0] * n for _ in range(n)]
        for r, c in enumerate(queens):
            board[r][c] = 1
        row = len(queens)
        if row == n:
            memo[key] = (1, board)
            return 1
        total = 0
        for c in range(n):
            if all(c != qc and abs(c - qc) != row - qr for qr, qc in enumerate(queens)):
                queens.append(c)
                total += solve(queens)
                queens.pop()
        memo[key] = (total, board)
        return total

    print(solve([]))


main()
