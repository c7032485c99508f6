# BOJ 9663 N-Queen -- time limit exceeded. [slow]: about 30 s at N = 11, then the 32 s limit at N = 12
# Brute force over all placements with one queen per row and per column: every permutation of the columns
# (itertools.permutations, N! of them) is built in full and only then checked, pair by pair, for two
# queens on a shared diagonal. Correct, and fine up to N = 10 (3.6 million permutations, about 2.5 s),
# but N! grows too fast: N = 11 (39.9 million) takes close to 30 s, right at the 32 s Python gets,
# N = 12 about 6 minutes, N = 13 (6.2 billion) over an hour and N = 14 (87 billion) most of a day.
import sys
from itertools import permutations


def attacks(cols):
    n = len(cols)
    for i in range(n):
        for j in range(i + 1, n):
            if abs(cols[i] - cols[j]) == j - i:
                return True
    return False


def main():
    n = int(sys.stdin.readline())
    count = 0
    for cols in permutations(range(n)):
        if not attacks(cols):
            count += 1
    print(count)


main()
