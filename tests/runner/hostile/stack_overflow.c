/* Deep recursion that overflows the C stack (the stack may grow to the memory limit, as on BOJ).
 * Expected: RE (SIGSEGV at the stack limit) or MLE (the memory limit hit first). Must NOT: hang or crash the judge. */
#include <stdio.h>
#include <sys/prctl.h>

static long dive(long depth) {
    volatile char frame[4096];
    frame[0] = (char)depth;
    return dive(depth + 1) + frame[0];
}

int main(void) {
    prctl(PR_SET_NAME, "@TAG@", 0, 0, 0);
    printf("%ld\n", dive(0));
    return 0;
}
