// BOJ 9663 N-Queen -- compile error (C++).
// The counter `answer` is declared as a local of main() but incremented in place(), where nothing named
// answer is in scope: "'answer' was not declared in this scope".
#include <cstdio>

int n;
bool colUsed[15], slashUsed[30], backslashUsed[30];

void place(int row) {
    if (row == n) {
        answer++;  // BUG: answer is only declared inside main()
        return;
    }
    for (int col = 0; col < n; col++) {
        if (colUsed[col] || slashUsed[row + col] || backslashUsed[row - col + n - 1]) continue;
        colUsed[col] = slashUsed[row + col] = backslashUsed[row - col + n - 1] = true;
        place(row + 1);
        colUsed[col] = slashUsed[row + col] = backslashUsed[row - col + n - 1] = false;
    }
}

int main() {
    int answer = 0;
    scanf("%d", &n);
    place(0);
    printf("%d\n", answer);
    return 0;
}
