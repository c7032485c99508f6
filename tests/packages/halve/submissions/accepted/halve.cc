#include <cstdio>

int main() {
    long long n;
    if (std::scanf("%lld", &n) != 1) return 1;
    std::printf("%.1f\n", n / 2.0);
}
