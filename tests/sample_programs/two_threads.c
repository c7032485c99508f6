/* Two threads spinning on two cores: CPU time grows about twice as fast as wall time. */
#include <pthread.h>
#include <stdio.h>

static volatile unsigned long counter[2];

static void *spin(void *slot) {
    volatile unsigned long *mine = slot;
    for (;;) (*mine)++;
    return NULL;
}

int main(void) {
    pthread_t other;
    pthread_create(&other, NULL, spin, (void *)&counter[1]);
    spin((void *)&counter[0]);
    printf("%lu\n", counter[0]);
    return 0;
}
