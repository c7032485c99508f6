# BOJ 9663 N-Queen -- presentation error.
# Counts correctly (bitmask backtracking), but prints with print("", count): print puts its separator
# between the empty string and the number, so the line is " 92" with a leading space. Same token as the
# answer, different layout -- BOJ calls that a presentation error (only trailing spaces are forgiven).
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

    print("", count(0, 0, 0))  # BUG: prints " <count>"


main()
