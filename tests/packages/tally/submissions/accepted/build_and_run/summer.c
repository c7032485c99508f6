#include <stdio.h>
#include <string.h>

#ifndef BUILT_BY_SCRIPT
#error "build this folder with its build script"
#endif

int main(int argc, char **argv) {
    int n;
    long long number, total = 0;
    if (argc != 2 || strcmp(argv[1], "--add") != 0) return 2;
    if (scanf("%d", &n) != 1) return 1;
    while (n-- > 0 && scanf("%lld", &number) == 1) total += number;
    printf("%lld\n", total);
    return 0;
}
