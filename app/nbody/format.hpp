#pragma once
// Small formatting helpers shared by the N-body panels.
#include <cstdio>
#include <string>

namespace clviz {

// "12.3 ms", "0.042 ms"; "n/a" for negative (not measured).
inline std::string formatMs(double ms) {
    if (ms < 0) return "n/a";
    char buf[32];
    std::snprintf(buf, sizeof buf, ms >= 10 ? "%.1f ms" : ms >= 1 ? "%.2f ms" : "%.3f ms", ms);
    return buf;
}

// 1.23e9 -> "1.23" + " G"; below 1000 the unit is `none`.
inline std::string withSiPrefix(double v, const char* none) {
    const char* units[] = {none, " k", " M", " G", " T", " P"};
    int u = 0;
    while (v >= 1000 && u < 5)
        v /= 1000, ++u;
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.2f%s", v, units[u]);
    return buf;
}

// 1.23e9 -> "1.23 G", 4.5e12 -> "4.50 T".
inline std::string formatCount(double v) {
    return withSiPrefix(v, "");
}

// 131072 -> "131.07 k", for a unit that follows directly: "131.07 kB".
inline std::string formatUnitPrefix(double v) {
    return withSiPrefix(v, " ");
}

}  // namespace clviz
