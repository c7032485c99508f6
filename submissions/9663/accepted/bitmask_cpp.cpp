// BOJ 9663 N-Queen -- accepted (C++).
// Bitmask backtracking over rows: attacked columns and both diagonals as bit sets, free squares taken
// lowest bit first.
#include <cstdio>

static int full;

static long long count(int cols, int left, int right) {
    if (cols == full) return 1;
    long long total = 0;
    int freeBits = full & ~(cols | left | right);
    while (freeBits) {
        int bit = freeBits & -freeBits;
        freeBits ^= bit;
        total += count(cols | bit, ((left | bit) << 1) & full, (right | bit) >> 1);
    }
    return total;
}

int main() {
    int n;
    if (scanf("%d", &n) != 1) return 0;
    full = (1 << n) - 1;
    printf("%lld\n", count(0, 0, 0));
    return 0;
}
