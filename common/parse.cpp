#include "common/parse.hpp"

#include <charconv>
#include <cmath>
#include <limits>

#include "common/text.hpp"

namespace clviz {

namespace {

// from_chars takes no leading '+'; people type one.
std::string_view withoutPlus(std::string_view t) {
    if (t.size() > 1 && t[0] == '+' && t[1] != '-' && t[1] != '+') t.remove_prefix(1);
    return t;
}

}  // namespace

std::string trim(std::string_view text) {
    const auto b = text.find_first_not_of(" \t");
    if (b == std::string_view::npos) return "";
    const auto e = text.find_last_not_of(" \t");
    return std::string(text.substr(b, e - b + 1));
}

std::optional<bool> parseOnOff(std::string_view text) {
    const std::string t = toLower(trim(text));
    if (t == "on" || t == "true" || t == "1" || t == "yes") return true;
    if (t == "off" || t == "false" || t == "0" || t == "no") return false;
    return std::nullopt;
}

std::optional<long long> parseInteger(std::string_view text) {
    const std::string_view t = withoutPlus(text);
    long long v = 0;
    const auto [ptr, ec] = std::from_chars(t.data(), t.data() + t.size(), v);
    if (t.empty() || ptr != t.data() + t.size()) return std::nullopt;
    if (ec == std::errc::result_out_of_range)
        return t[0] == '-' ? std::numeric_limits<long long>::min()
                           : std::numeric_limits<long long>::max();
    if (ec != std::errc()) return std::nullopt;
    return v;
}

std::optional<double> parseNumber(std::string_view text) {
    const std::string_view t = withoutPlus(text);
    double v = 0;
    const auto [ptr, ec] = std::from_chars(t.data(), t.data() + t.size(), v);
    if (t.empty() || ec != std::errc() || ptr != t.data() + t.size() || !std::isfinite(v))
        return std::nullopt;
    return v;
}

std::optional<Size2> parseSize(std::string_view text) {
    const std::string t = toLower(std::string(text));
    const auto x = t.find('x');
    if (x == std::string::npos) return std::nullopt;
    const auto w = parseInteger(std::string_view(t).substr(0, x));
    const auto h = parseInteger(std::string_view(t).substr(x + 1));
    if (!w || !h || *w < 1 || *h < 1 || t[0] == '+' || t[x + 1] == '+') return std::nullopt;
    return Size2{*w, *h};
}

std::vector<std::string> splitList(std::string_view text, char sep) {
    std::vector<std::string> out;
    if (text.empty()) return out;
    std::size_t start = 0;
    for (;;) {
        const auto at = text.find(sep, start);
        out.push_back(trim(text.substr(start, at - start)));
        if (at == std::string_view::npos) break;
        start = at + 1;
    }
    return out;
}

std::optional<std::size_t> parseChoice(std::string_view text,
                                       const std::vector<std::string>& names) {
    for (std::size_t i = 0; i < names.size(); ++i)
        if (names[i] == text) return i;
    return std::nullopt;
}

std::string choiceList(const std::vector<std::string>& names, const char* lastJoin) {
    std::string out;
    for (std::size_t i = 0; i < names.size(); ++i) {
        if (i) out += i + 1 == names.size() ? lastJoin : ", ";
        out += names[i];
    }
    return out;
}

}  // namespace clviz
