# Stops with quit() on the special case and exit() at the end, as many students do: both come from `site`.
import sys

input = sys.stdin.readline


def main():
    a, b = map(int, input().split())
    if a == 0 and b == 0:
        print(0)
        quit()
    print(a + b)


main()
exit()
