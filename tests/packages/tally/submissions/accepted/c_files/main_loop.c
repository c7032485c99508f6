/* The program of two C files linked together: this one reads and prints, numbers.c adds. */
#include <stdio.h>

long long add_all(int count);

int main(void) {
    int n;
    if (scanf("%d", &n) != 1) return 1;
    printf("%lld\n", add_all(n));
    return 0;
}
