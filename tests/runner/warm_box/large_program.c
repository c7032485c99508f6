/* Compiles to a file larger than the default 1 MiB output limit (2 MiB of initialised data), like any static C++
   program: the warm box must still copy it in. Prints "ran". */
#include <stdio.h>

static volatile char padding[2 * 1024 * 1024] = {1};

int main(void) {
    puts(padding[0] == 1 ? "ran" : "padding lost");
    return 0;
}
