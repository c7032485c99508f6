/* Reads `count` integers and returns their sum; linked with main_loop.c, which has main. */
#include <stdio.h>

long long add_all(int count) {
    long long number, total = 0;
    for (int i = 0; i < count && scanf("%lld", &number) == 1; i++) total += number;
    return total;
}
