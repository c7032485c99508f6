/* Counts how many processes it can have alive at once: forks up to 150 children that wait, then prints
 * `forked=<n>` and exits (the judge kills the children). Bounded on purpose, so it is safe anywhere.
 * Expected: WA with n below the process limit (64) on every sandbox and memory mechanism.
 * Must NOT: reach 150 (the limit does not hold), or leave a child behind. */
#include <stdio.h>
#include <sys/prctl.h>
#include <unistd.h>

int main(void) {
    prctl(PR_SET_NAME, "@TAG@", 0, 0, 0);
    int forked = 0;
    for (int i = 0; i < 150; i++) {
        pid_t pid = fork();
        if (pid == 0) {
            for (;;)
                pause();
        }
        if (pid > 0)
            forked++;
    }
    printf("forked=%d\n", forked);
    return 0;
}
