#pragma once
// Private to NbodySimulation's source files (simulation.cpp, autotune.cpp, diagnostics.cpp,
// diagnostics_in_flight.cpp):
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
    cl::Kernel gatherUint;           // renumbering: the bodies' ids (the tree gathers the state)
    cl::Kernel energyFromPotential;  // the tree's O(N) energy (float)
    int energyFromPotentialWg = 0;
};

// One non-blocking diagnostics measurement (diagnostics_in_flight.cpp): what it reads, where its
// group partials land (pinned host memory, mapped once), and the slice on the device.
struct NbodySimulation::DiagnosticsInFlight {
    bool fromTree = false;  // the tree's potential in acc.w: one O(N) launch
    double theta = 0;       // the tree's opening angle, for the label
    bool dbl = false;       // the state was fp64 when it began
    double eps2 = 0;        // the softening then, squared
    cl::Kernel kernel;
    std::size_t wg = 0, n = 0, groups = 0;
    std::size_t begin = 0, end = 0;  // i bodies measured (the owned range), in every slice
    std::uint64_t renumberings = 0;  // NbodySimulation::renumberings_ when it began
    std::size_t next = 0;            // first j body of the next slice
    cl::Buffer pos, vel;             // the all-pairs sum's copy of the state
    cl::Buffer partials, firstBad;   // on the device, one entry per group of the i range
    cl::Buffer staging;              // ALLOC_HOST_PTR: partials then firstBad, mapped
    unsigned char* host = nullptr;   // its mapping (valid once the map has run)
    cl::Event kernelDone;            // the slice in flight
    cl::Event readDone;              // the partials' read, after the last slice
    bool sliceTimed = false;         // kernelDone's time is counted
    std::size_t sliceBodies = 0;     // j bodies of the slice in flight
    double sliceBudgetMs = 0;
    double interactionsPerMs = 0;  // measured on the last slice
    double ms = 0, maxSliceMs = 0;
    int slices = 0;
    ComputeContext* cc = nullptr;
    ~DiagnosticsInFlight();  // unmaps (enqueued; never waits)
};

namespace nbody_detail {

constexpr std::size_t kElementwiseWg = 64;  // work-group of the per-body update kernels

// A kernel of nbody_diagnostics.cl at the largest power-of-two work-group (up to 256) its build
// can run (diagnostics.cpp).
void fetchDiagnosticsKernel(ComputeContext& cc, const char* name, bool dbl, cl::Kernel& kernel,
                            int& workGroupSize);

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

// The energy kernel's output read back: `groups` rows of 8 partials of type `real` (kinetic,
// potential, momentum xyz, non-finite count, ...) added in group order in double, and each
// group's first non-finite body, as the figures of the n bodies. Both the blocking and the
// polled diagnostics finish through it.
NbodyDiagnosticSums diagnosticSumsFrom(const void* partials, bool dbl, const cl_int* firstBad,
                                       std::size_t groups, std::size_t n);

}  // namespace nbody_detail

}  // namespace clviz
