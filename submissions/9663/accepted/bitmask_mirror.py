# BOJ 9663 N-Queen -- accepted (the fast Python one).
# Bitmask backtracking: `cols`, `left` and `right` hold the columns attacked in the current row by the
# queens above (straight down and along both diagonals); the free squares are the zero bits, taken one at
# a time with x & -x. Mirror symmetry halves the work: a solution whose first-row queen sits in column c
# mirrors to one with it in column n-1-c, so only the left half of the first row is tried (counted
# twice), plus the middle column once when n is odd.
import sys


def main():
    n = int(sys.stdin.readline())
    full = (1 << n) - 1

    def count(cols, left, right):
        if cols == full:
            return 1
        total = 0
        free = full & ~(cols | left | right)
        while free:
            bit = free & -free
            free ^= bit
            total += count(cols | bit, ((left | bit) << 1) & full, (right | bit) >> 1)
        return total

    answer = 0
    for c in range(n // 2):
        bit = 1 << c
        answer += 2 * count(bit, (bit << 1) & full, bit >> 1)
    if n % 2 == 1:
        bit = 1 << (n // 2)
        answer += count(bit, (bit << 1) & full, bit >> 1)
    print(answer)


main()
