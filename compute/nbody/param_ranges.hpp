#pragma once
// The accepted range of each physical parameter, in one table: the settings rows (--set dt=...,
// the Simulation panel) and the snapshot loader check against the same rows, so a snapshot
// cannot bring in a dt or softening the settings would refuse (a dt of 1e30 turned every body
// NaN; issue 28).
#include <cmath>
#include <optional>
#include <string>

#include "common/text.hpp"  // shortNumber

namespace clviz {

struct NbodyParamRange {
    const char* key;
    double lo, hi;
    bool openLow;  // (lo, hi] instead of [lo, hi]

    bool contains(double v) const {
        return std::isfinite(v) && v >= lo && v <= hi && !(openLow && v == lo);
    }
    // "0 < X <= 10": the accepted values.
    std::string range() const {
        return shortNumber(lo) + (openLow ? " < X <= " : " <= X <= ") + shortNumber(hi);
    }
    // "X (0 < X <= 10)", the settings' accepted-values column.
    std::string accepted() const { return "X (" + range() + ")"; }
    // "dt is 1e+30; dt must be 0 < X <= 10", or nothing when v is accepted.
    std::optional<std::string> problem(double v) const {
        if (contains(v)) return std::nullopt;
        return std::string(key) + " is " + shortNumber(v) + "; the " + key + " setting accepts " +
               range();
    }
};

inline constexpr NbodyParamRange kDtRange{"dt", 0, 10, true};
inline constexpr NbodyParamRange kSofteningRange{"softening", 0, 100, false};
inline constexpr NbodyParamRange kThetaRange{"theta", 0, 2, false};
inline constexpr NbodyParamRange kThetaFarRange{"theta-far", 0, 0.95, false};
inline constexpr NbodyParamRange kDampingRange{"damping", 0, 1, true};

}  // namespace clviz
