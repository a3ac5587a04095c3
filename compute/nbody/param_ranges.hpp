#pragma once
// The accepted range of each physical parameter, in one table: the settings rows (--set dt=...,
// the Simulation panel) and the snapshot loader check against the same rows, so a snapshot
// cannot bring in a dt or softening the settings would refuse (a dt of 1e30 turned every body
// NaN; issue 28).
#include <cmath>
#include <cstdio>
#include <optional>
#include <string>

namespace clviz {

struct NbodyParamRange {
    const char* key;
    double lo, hi;
    bool openLow;  // (lo, hi] instead of [lo, hi]

    bool contains(double v) const {
        return std::isfinite(v) && v >= lo && v <= hi && !(openLow && v == lo);
    }
    // "X (0 < X <= 10)", the settings' accepted-values column.
    std::string accepted() const {
        return "X (" + bound(lo) + (openLow ? " < X <= " : " <= X <= ") + bound(hi) + ")";
    }
    // "dt is 1e+30; dt must be 0 < X <= 10", or nothing when v is accepted.
    std::optional<std::string> problem(double v) const {
        if (contains(v)) return std::nullopt;
        char text[32];
        std::snprintf(text, sizeof text, "%g", v);
        return std::string(key) + " is " + text + "; the " + key + " setting accepts " +
               accepted().substr(3, accepted().size() - 4);
    }

  private:
    static std::string bound(double v) {
        char text[32];
        std::snprintf(text, sizeof text, "%g", v);
        return text;
    }
};

inline constexpr NbodyParamRange kDtRange{"dt", 0, 10, true};
inline constexpr NbodyParamRange kSofteningRange{"softening", 0, 100, false};
inline constexpr NbodyParamRange kThetaRange{"theta", 0, 2, false};
inline constexpr NbodyParamRange kThetaFarRange{"theta-far", 0, 0.95, false};
inline constexpr NbodyParamRange kDampingRange{"damping", 0, 1, true};

}  // namespace clviz
