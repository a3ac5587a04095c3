#pragma once
// Small string helpers shared by the command line, settings and file-format code.
#include <algorithm>
#include <cctype>
#include <string>

namespace clviz {

// ASCII lower case ("NVIDIA" -> "nvidia"); names and extensions are compared this way.
inline std::string toLower(std::string s) {
    std::transform(s.begin(), s.end(), s.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return s;
}

}  // namespace clviz
