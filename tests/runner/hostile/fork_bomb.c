/* Fork bomb: every process forks forever and spins.
 * Expected: TLE (CPU of the whole tree) or RE (too many processes), on every sandbox.
 * Must NOT: exceed the pids limit, slow the machine down for long, or leave one process behind. */
#include <sys/prctl.h>
#include <unistd.h>

int main(void) {
    prctl(PR_SET_NAME, "@TAG@", 0, 0, 0);
    for (;;)
        fork();
}
