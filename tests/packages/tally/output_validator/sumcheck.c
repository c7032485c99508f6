/* Tally's output validator: the team's output must be the one integer of the answer file. Started by `run` as
   sumcheck INPUT ANSWER FEEDBACK_DIR --one-number, which it insists on: the package's own arguments reach it. */
#include <stdio.h>
#include <string.h>

int main(int argc, char **argv) {
    if (argc != 5 || strcmp(argv[4], "--one-number") != 0) {
        fprintf(stderr, "sumcheck: want INPUT ANSWER FEEDBACK_DIR --one-number, got %d arguments\n", argc - 1);
        return 1;
    }
    FILE *answer = fopen(argv[2], "r");
    long long expected, got;
    char extra[2];
    if (answer == NULL || fscanf(answer, "%lld", &expected) != 1) {
        fprintf(stderr, "sumcheck: cannot read the answer\n");
        return 1;
    }
    if (scanf("%lld", &got) != 1 || scanf("%1s", extra) == 1 || got != expected) {
        char path[4096];
        snprintf(path, sizeof path, "%s/judgemessage.txt", argv[3]);
        FILE *message = fopen(path, "w");
        if (message != NULL) {
            fprintf(message, "wanted the one number %lld\n", expected);
            fclose(message);
        }
        return 43;
    }
    return 42;
}
