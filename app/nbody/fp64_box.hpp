#pragma once
// The Simulation panel's "double precision (fp64)" box is always shown; where double precision
// cannot run it is disabled and its tooltip says why, so the user learns it before asking (a
// refused switch would only say so afterwards).
#include <string>

#include "compute/nbody/variants.hpp"

namespace clviz {

// Why the box is disabled on `deviceName` for `variant`; "" when it may be ticked.
inline std::string fp64Unavailable(const std::string& deviceName, bool deviceHasFp64,
                                   NbodyVariant variant) {
    if (!deviceHasFp64)
        return deviceName + " has no fp64 (cl_khr_fp64): the simulation runs in float";
    if (runsOnOneDeviceInFloat(variant))
        return std::string("the ") + variantName(variant) + " variant computes in float only";
    return "";
}

}  // namespace clviz
