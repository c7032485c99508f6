// BOJ 2580 Sudoku -- accepted (C++).
// Bitmasks per row, column and box; the blank with the fewest candidates is filled first.
#include <cstdio>

static int cell[81];
static int rowMask[9], colMask[9], boxMask[9];
static int todo[81];
static int todoCount = 0;
static const int ALL = 0x3FE;  // bits 1..9

static inline int rowOf(int i) { return i / 9; }
static inline int colOf(int i) { return i % 9; }
static inline int boxOf(int i) { return (i / 27) * 3 + (i % 9) / 3; }

static bool search(int k) {
    if (k == todoCount) return true;
    int bestPos = -1, bestFree = 0, bestCount = 10;
    for (int p = k; p < todoCount; p++) {
        int i = todo[p];
        int freeBits = ALL & ~(rowMask[rowOf(i)] | colMask[colOf(i)] | boxMask[boxOf(i)]);
        int count = __builtin_popcount(freeBits);
        if (count < bestCount) {
            if (count == 0) return false;
            bestPos = p;
            bestFree = freeBits;
            bestCount = count;
            if (count == 1) break;
        }
    }
    int tmp = todo[k];
    todo[k] = todo[bestPos];
    todo[bestPos] = tmp;
    int i = todo[k];
    int r = rowOf(i), c = colOf(i), b = boxOf(i);
    for (int freeBits = bestFree; freeBits; freeBits &= freeBits - 1) {
        int bit = freeBits & -freeBits;
        rowMask[r] |= bit;
        colMask[c] |= bit;
        boxMask[b] |= bit;
        cell[i] = __builtin_ctz(bit);
        if (search(k + 1)) return true;
        rowMask[r] ^= bit;
        colMask[c] ^= bit;
        boxMask[b] ^= bit;
    }
    cell[i] = 0;
    return false;
}

int main() {
    for (int i = 0; i < 81; i++) {
        if (scanf("%d", &cell[i]) != 1) return 0;
        if (cell[i] == 0) {
            todo[todoCount++] = i;
        } else {
            int bit = 1 << cell[i];
            rowMask[rowOf(i)] |= bit;
            colMask[colOf(i)] |= bit;
            boxMask[boxOf(i)] |= bit;
        }
    }
    search(0);
    for (int r = 0; r < 9; r++) {
        for (int c = 0; c < 9; c++) {
            printf(c ? " %d" : "%d", cell[r * 9 + c]);
        }
        printf("\n");
    }
    return 0;
}
