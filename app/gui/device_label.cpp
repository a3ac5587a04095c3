#include "app/gui/device_label.hpp"

#include <array>
#include <regex>
#include <utility>

namespace clviz {

namespace {

std::string collapseSpaces(const std::string& s) {
    std::string out;
    for (char c : s) {
        if (c == ' ' && (out.empty() || out.back() == ' ' || out.back() == '-')) continue;
        if (c == '-' && !out.empty() && out.back() == ' ') out.pop_back();
        out += c;
    }
    while (!out.empty() && (out.back() == ' ' || out.back() == '-'))
        out.pop_back();
    return out;
}

std::string withoutTrademarks(const std::string& s) {
    static const std::regex marks(R"(\((R|r|TM|tm)\)|®|™)");
    return std::regex_replace(s, marks, "");
}

}  // namespace

std::string compactDeviceName(const std::string& name) {
    // Filler words that carry no information once the model name is there, and the nominal clock
    // ("@ 2.80GHz"), which the OpenCL panel lists anyway.
    static const std::regex filler(R"(\b(CPU|Processor|processor)\b)");
    static const std::regex clock(R"(@\s*[0-9.]+\s*[GM]Hz)");
    std::string s = withoutTrademarks(name);
    s = std::regex_replace(s, clock, "");
    s = std::regex_replace(s, filler, "");
    s = collapseSpaces(s);
    return s.empty() ? name : s;
}

std::string compactPlatformName(const std::string& name) {
    static const std::array<std::pair<const char*, const char*>, 3> known{{
        {"Portable Computing Language", "PoCL"},
        {"AMD Accelerated Parallel Processing", "AMD APP"},
        {"Intel(R) OpenCL HD Graphics", "Intel HD Graphics"},
    }};
    for (const auto& [full, shortName] : known)
        if (name == full) return shortName;
    const std::string s = collapseSpaces(withoutTrademarks(name));
    return s.empty() ? name : s;
}

}  // namespace clviz
