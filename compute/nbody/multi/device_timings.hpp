#pragma once
// Where the time of a step goes on each device (or MPI rank) that shares an N-body system.
#include <cstddef>
#include <string>
#include <utility>
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
    // Where compute and exchange go, per step: the kernels by stage ("tree build": box, keys,
    // sort, build and moments, and the split build's exchange kernels; "tree walk": its domain's
    // walk; "force"; "integrate": kick and drift, and the tree's accelerations returned to the
    // body order with the closing kick), "transfers" (device <-> host, device time; copies that
    // overlap are each counted), "host sum" (pairs' parts added on the host), and over MPI "mpi"
    // (the collectives' or the window barriers' wall time, the wait for slower ranks included) and
    // "host copy" (the window's copies between shared and pinned memory, wall time).
    std::vector<std::pair<std::string, double>> phases;
};

struct NbodyStepTimings;
// The kernels of `t` grouped into the phases above, in ms per step of its `steps`.
std::vector<std::pair<std::string, double>> kernelPhases(const NbodyStepTimings& t);

struct NbodyMultiTimings {
    int steps = 0;      // steps of the last step() call
    double stepMs = 0;  // wall-clock time per step of that call
    long long bodies = 0;
    int rebalances = 0;       // times the slices were re-sized since load()
    std::string integration;  // the split tree: who moved the bodies and why ("" elsewhere)
    // The split tree in one process: "whole" (every device built the whole tree) or "split" (each
    // its own domain's, with the cells the others' walks open); "" elsewhere.
    std::string treeBuild;
    std::vector<NbodyDeviceTimings> devices;
    double interactionsPerSecond() const;  // N^2 / stepMs
};

}  // namespace clviz
