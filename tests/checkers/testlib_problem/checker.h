// The few reading helpers checker.cpp needs, in place of testlib.h: read a whole file, then tokens.
#pragma once
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

inline bool read_all(const char *path, std::string &text) {
    std::ifstream file(path, std::ios::binary);
    if (!file) return false;
    std::ostringstream buffer;
    buffer << file.rdbuf();
    text = buffer.str();
    return true;
}

inline std::vector<std::string> tokens(const std::string &text) {
    std::istringstream stream(text);
    std::vector<std::string> found;
    for (std::string token; stream >> token;) found.push_back(token);
    return found;
}
