#include <math.h>
#include <stdio.h>

/* Reads the two legs of a right triangle, prints the hypotenuse rounded down. Reads input.txt when run at home:
   BOJ defines ONLINE_JUDGE. sqrt needs -lm. `count` is never used: -Wall warns, which is no compile error. */
int main(void) {
#ifndef ONLINE_JUDGE
    freopen("input.txt", "r", stdin);
#endif
    int x, y, count;
    scanf("%d %d", &x, &y);
    printf("%d\n", (int)sqrt((double)x * x + (double)y * y));
    return 0;
}
