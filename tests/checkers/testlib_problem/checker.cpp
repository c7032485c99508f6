// testlib protocol: checker input output answer; exit 0 ok, 1 wrong answer, 2 presentation error, 3 fail,
// 7 partial points ("points <value>" first on stderr). Any integer within 1 of the answer is right; 2 away earns
// half the points; a right number followed by more output is a presentation error.
#include <cstdio>
#include <cstdlib>
#include "checker.h"

static int verdict(int code, const std::string &message) {
    std::fprintf(stderr, "%s\n", message.c_str());
    return code;
}

int main(int argc, char **argv) {
    std::string input, output, answer;
    if (argc < 4 || !read_all(argv[1], input) || !read_all(argv[2], output) || !read_all(argv[3], answer))
        return verdict(3, "cannot read the files");
    std::vector<std::string> want = tokens(answer), got = tokens(output);
    if (want.size() != 1) return verdict(3, "the answer file must hold one number");
    if (got.empty()) return verdict(1, "no output");
    char *end = nullptr;
    long long x = std::strtoll(got[0].c_str(), &end, 10), n = std::atoll(want[0].c_str());
    if (*end != '\0' || got[0].empty()) return verdict(1, "expected an integer, got " + got[0]);
    long long distance = x > n ? x - n : n - x;
    if (distance > 2) return verdict(1, got[0] + " is too far from the answer");
    if (distance == 2) return verdict(7, "points 0.5 two away");
    if (got.size() > 1) return verdict(2, "one number only, please");
    return verdict(0, "near enough");
}
