/* Kept in a header so that the submission is a folder: a C file and what it includes. */
static long long add(long long total, long long number) { return total + number; }
