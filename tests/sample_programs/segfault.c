/* Writes through a null pointer the compiler cannot see is null (nor drop): SIGSEGV, not a trap. */
int main(void) {
    volatile int *volatile pointer = 0;
    *pointer = 1;
    return 0;
}
