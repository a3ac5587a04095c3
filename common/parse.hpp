#pragma once
// The rules for reading what a user typed (command line, --set values, panel entries), in one
// place so that every flag and setting accepts the same spellings. Each parser returns nullopt
// for text it does not accept; the caller words the message, naming what it accepts.
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace clviz {

// `text` without spaces and tabs at either end.
std::string trim(std::string_view text);

// on/off, true/false, 1/0, yes/no, in any case, spaces around allowed.
std::optional<bool> parseOnOff(std::string_view text);

// The number parsers take exactly the number: no spaces (callers that allow them trim first).

// A whole decimal number ("42", "-3", "+7"). Numbers beyond long long come back as its
// largest/smallest value, so a range check names them out of range rather than not a number.
std::optional<long long> parseInteger(std::string_view text);

// A finite decimal number ("0.5", "-1e-3", "+2"); "nan", "inf" and trailing text are refused.
std::optional<double> parseNumber(std::string_view text);

// WIDTHxHEIGHT ("1280x720"), both whole numbers from 1 up.
struct Size2 {
    long long width = 0;
    long long height = 0;
    bool operator==(const Size2&) const = default;
};
std::optional<Size2> parseSize(std::string_view text);

// The items of a `sep`-separated list, each trimmed; a trailing separator gives an empty last
// item (so "a," is seen as a mistake), "" gives none.
std::vector<std::string> splitList(std::string_view text, char sep = ',');

// The index of `text` among `names` (exact match), or nullopt.
std::optional<std::size_t> parseChoice(std::string_view text,
                                       const std::vector<std::string>& names);

// "a, b or c": the names a message lists as accepted.
std::string choiceList(const std::vector<std::string>& names, const char* lastJoin = " or ");

// The smallest multiple of m that is >= n (m > 0): global sizes padded to whole work-groups.
constexpr std::size_t roundUp(std::size_t n, std::size_t m) {
    return (n + m - 1) / m * m;
}

}  // namespace clviz
