#pragma once
// Where the time of a step goes on each device (or MPI rank) that shares an N-body system.
#include <cstddef>
#include <string>
#include <vector>

namespace clviz {

struct NbodyDeviceTimings {
    std::string device;     // its name ("rank 1: NVIDIA H200" for MPI)
    std::size_t begin = 0;  // its slice of the bodies
    std::size_t count = 0;
    double share = 0;       // count / N
    double computeMs = 0;   // its kernels (force, update) per step, device time
    double exchangeMs = 0;  // per step: its slice out, the other slices in (transfers, MPI)
    double waitMs = 0;      // per step: idle at the exchange, waiting for slower devices
};

struct NbodyMultiTimings {
    int steps = 0;      // steps of the last step() call
    double stepMs = 0;  // wall-clock time per step of that call
    long long bodies = 0;
    int rebalances = 0;  // times the slices were re-sized since load()
    std::vector<NbodyDeviceTimings> devices;
    double interactionsPerSecond() const;  // N^2 / stepMs
};

}  // namespace clviz
