#pragma once
// Private to NbodySimulation's source files (simulation.cpp, autotune.cpp, diagnostics.cpp):
// the kernels it holds and small helpers they share. Not part of the public API.
#include <cstddef>
#include <map>
#include <string>

#include "common/parse.hpp"
#include "compute/nbody/simulation.hpp"

namespace clviz {

struct NbodySimulation::Built {
    cl::Kernel kernel;
    NbodyKernelConfig config;  // fully resolved
    std::size_t bodiesPerGroup = 1;
};

struct NbodySimulation::Kernels {
    std::map<std::string, Built> force;  // by build options
    Built* current = nullptr;            // for the current config, precision, N and softening
    cl::Kernel kickDrift[2], taylor[2], energy[2], toFloat, toDouble;  // [1]: fp64
    int energyWg[2] = {0, 0};
};

namespace nbody_detail {

constexpr std::size_t kElementwiseWg = 64;  // work-group of the per-body update kernels

inline std::size_t realBytes(NbodyPrecision p) {
    return p == NbodyPrecision::Double ? 8 : 4;
}

// A `real` kernel argument: double in fp64 mode, float otherwise.
inline void setRealArg(cl::Kernel& k, cl_uint index, double v, NbodyPrecision p) {
    if (p == NbodyPrecision::Double)
        k.setArg(index, v);
    else
        k.setArg(index, static_cast<float>(v));
}

}  // namespace nbody_detail

}  // namespace clviz
