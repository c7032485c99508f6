#include <iostream>

int main() {
    long long total = 0, number;
    while (std::cin >> number) total += number;  // until the end of input
    std::cout << total << std::endl;
}
