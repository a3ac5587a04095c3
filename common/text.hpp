#pragma once
// Small string helpers shared by the command line, settings and file-format code.
#include <algorithm>
#include <cctype>
#include <cstdio>
#include <string>

namespace clviz {

// ASCII lower case ("NVIDIA" -> "nvidia"); names and extensions are compared this way.
inline std::string toLower(std::string s) {
    std::transform(s.begin(), s.end(), s.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return s;
}

// "0.5" rather than "0.500000" (printf's %g): a number as a person writes it, for bounds and
// defaults in messages and help.
inline std::string shortNumber(double v) {
    char text[32];
    std::snprintf(text, sizeof text, "%g", v);
    return text;
}

}  // namespace clviz
