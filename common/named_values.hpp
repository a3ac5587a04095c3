#pragma once
// An enum's spellings as one table read both ways: the name a value is shown and set by, and the
// value a name parses to, refused with the list of names ("expected a, b or c").
#include <cstddef>
#include <string>
#include <utility>

#include "common/error.hpp"

namespace clviz {

template <class E>
using NamedValue = std::pair<E, const char*>;

template <class E, std::size_t N>
const char* nameOf(const NamedValue<E> (&table)[N], E value) {
    for (const auto& [v, name] : table)
        if (v == value) return name;
    return "?";
}

// "a", "a or b", "a, b or c"
template <class E, std::size_t N>
std::string nameList(const NamedValue<E> (&table)[N]) {
    std::string list;
    for (std::size_t i = 0; i < N; ++i)
        list += std::string(i == 0 ? "" : i + 1 == N ? " or " : ", ") + table[i].second;
    return list;
}

// Throws clviz::Error "unknown WHAT 'NAME' (expected ...)" for a name the table does not hold.
template <class E, std::size_t N>
E parseNamed(const NamedValue<E> (&table)[N], const std::string& name, const std::string& what) {
    for (const auto& [v, n] : table)
        if (name == n) return v;
    throw Error("unknown " + what + " '" + name + "' (expected " + nameList(table) + ")");
}

}  // namespace clviz
