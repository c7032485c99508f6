// Package protocol: validate input answer feedback_dir < team_output; exit 42 accepts, 43 rejects.
#include <fstream>
#include <iostream>
#include <string>

static int reject(const std::string &feedback_dir, const std::string &why) {
    std::ofstream(feedback_dir + "/judgemessage.txt") << why << "\n";
    return 43;
}

int main(int argc, char **argv) {
    if (argc < 4) return 1;
    std::ifstream input(argv[1]);
    long long n;
    if (!(input >> n)) return 1;
    std::string feedback = argv[3];
    long long a, b;
    if (!(std::cin >> a >> b)) return reject(feedback, "expected two integers");
    std::string extra;
    if (std::cin >> extra) return reject(feedback, "extra output: " + extra);
    if (a < 0 || b < 0) return reject(feedback, "a part is negative");
    if (a + b != n) return reject(feedback, std::to_string(a) + " + " + std::to_string(b) + " is not " + std::to_string(n));
    return 42;
}
