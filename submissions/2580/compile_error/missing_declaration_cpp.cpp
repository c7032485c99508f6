// BOJ 2580 Sudoku -- compile error (C++).
// main() calls solve() before solve() is declared (no prototype above main, the definition comes
// after it), so g++ stops with "'solve' was not declared in this scope".
#include <cstdio>

int board[9][9];

bool fits(int r, int c, int d) {
    for (int i = 0; i < 9; i++)
        if (board[r][i] == d || board[i][c] == d) return false;
    int top = r / 3 * 3, left = c / 3 * 3;
    for (int i = top; i < top + 3; i++)
        for (int j = left; j < left + 3; j++)
            if (board[i][j] == d) return false;
    return true;
}

int main() {
    for (int r = 0; r < 9; r++)
        for (int c = 0; c < 9; c++) scanf("%d", &board[r][c]);
    solve(0);  // BUG: used before any declaration of solve
    for (int r = 0; r < 9; r++)
        for (int c = 0; c < 9; c++) printf("%d%c", board[r][c], c == 8 ? '\n' : ' ');
    return 0;
}

bool solve(int pos) {
    if (pos == 81) return true;
    int r = pos / 9, c = pos % 9;
    if (board[r][c]) return solve(pos + 1);
    for (int d = 1; d <= 9; d++) {
        if (fits(r, c, d)) {
            board[r][c] = d;
            if (solve(pos + 1)) return true;
        }
    }
    board[r][c] = 0;
    return false;
}
