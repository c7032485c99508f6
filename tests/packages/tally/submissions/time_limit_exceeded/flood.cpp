// Prints forever: past the 8 MiB output limit long before the time limit. In a 2023-07 or later package that is
// the time_limit_exceeded folder's (as BAPCtools expects); judge stops it at the output limit, OLE.
#include <cstdio>

int main() {
    for (;;) {
        std::fputs("tally tally tally tally tally tally tally tally tally tally tally tally tally tally\n", stdout);
    }
}
