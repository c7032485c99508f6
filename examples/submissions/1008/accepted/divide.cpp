#include <cstdio>

int main() {
    double a, b;
    std::scanf("%lf %lf", &a, &b);
    std::printf("%.12f\n", a / b);  // the default %f prints 6 digits: too few for an error of 1e-9
}
