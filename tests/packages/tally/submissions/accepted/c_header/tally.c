#include <stdio.h>
#include "running_sum.h"

int main(void) {
    int n;
    long long number, total = 0;
    if (scanf("%d", &n) != 1) return 1;
    for (int i = 0; i < n && scanf("%lld", &number) == 1; i++) total = add(total, number);
    printf("%lld\n", total);
    return 0;
}
