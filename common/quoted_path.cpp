#include "common/quoted_path.hpp"

#include <cstdio>

namespace clviz {

namespace {

void escapeByte(std::string& out, unsigned char c) {
    char hex[5];
    std::snprintf(hex, sizeof hex, "\\x%02X", c);
    out += hex;
}

// The length of the valid UTF-8 sequence of a printable character starting at s[i], or 0.
std::size_t printableUtf8(const std::string& s, std::size_t i) {
    const auto c = static_cast<unsigned char>(s[i]);
    const std::size_t n = c >= 0xF0 && c <= 0xF4 ? 4 : c >= 0xE0 ? 3 : c >= 0xC2 ? 2 : 0;
    if (n == 0 || i + n > s.size()) return 0;
    for (std::size_t k = 1; k < n; ++k)
        if ((static_cast<unsigned char>(s[i + k]) & 0xC0) != 0x80) return 0;
    if (c == 0xC2 && static_cast<unsigned char>(s[i + 1]) < 0xA0) return 0;  // C1 controls
    return n;
}

}  // namespace

std::string quotedPath(const std::string& path) {
    std::string out = "'";
    for (std::size_t i = 0; i < path.size();) {
        const auto c = static_cast<unsigned char>(path[i]);
        if (c >= 0x80) {
            if (const std::size_t n = printableUtf8(path, i)) {
                out.append(path, i, n);
                i += n;
            } else {
                escapeByte(out, c);
                ++i;
            }
            continue;
        }
        if (c == '\n')
            out += "\\n";
        else if (c == '\r')
            out += "\\r";
        else if (c == '\t')
            out += "\\t";
        else if (c == '\\')
            out += "\\\\";
        else if (c < 0x20 || c == 0x7F)
            escapeByte(out, c);
        else
            out += static_cast<char>(c);
        ++i;
    }
    return out + "'";
}

}  // namespace clviz
