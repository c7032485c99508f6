// BOJ 9663 N-Queen -- output limit exceeded (C++).
// Answers from a precomputed table (OEIS A000170), reading inputs with while (scanf("%d", &n)).
// At the end of the input scanf returns EOF, which is -1 and so true: the loop never stops and prints
// the last answer again and again (the test must be `== 1` or `!= EOF`).
#include <cstdio>

int main() {
    const long long answer[15] = {1, 1, 0, 0, 2, 10, 4, 40, 92, 352, 724, 2680, 14200, 73712, 365596};
    int n = 0;
    while (scanf("%d", &n)) {  // BUG: EOF (-1) counts as true
        printf("%lld\n", answer[n]);
    }
    return 0;
}
