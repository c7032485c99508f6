#include <cmath>
#include <cstdio>
#include <iostream>
using namespace std;

// Reads the two legs of a right triangle, prints the hypotenuse rounded down. Reads input.txt when run at home:
// BOJ defines ONLINE_JUDGE. `i` is never used: -Wall warns, which is no compile error.
int main() {
#ifndef ONLINE_JUDGE
    freopen("input.txt", "r", stdin);
#endif
    int x, y, i;
    cin >> x >> y;
    double length = sqrt(1.0 * x * x + 1.0 * y * y);
    cout << (int)length << endl;
    return 0;
}
