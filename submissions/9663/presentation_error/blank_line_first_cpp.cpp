// BOJ 9663 N-Queen -- presentation error (C++).
// Counts correctly (bitmask backtracking), but the format string starts with "\n" (left over from a
// multi-case template), so an empty line comes before the answer. Same token, different layout: PE.
#include <cstdio>

int full;

long long count(int cols, int left, int right) {
    if (cols == full) return 1;
    long long total = 0;
    for (int freeBits = full & ~(cols | left | right); freeBits; freeBits &= freeBits - 1) {
        int bit = freeBits & -freeBits;
        total += count(cols | bit, ((left | bit) << 1) & full, (right | bit) >> 1);
    }
    return total;
}

int main() {
    int n;
    scanf("%d", &n);
    full = (1 << n) - 1;
    printf("\n%lld\n", count(0, 0, 0));  // BUG: the leading \n makes a blank first line
    return 0;
}
