#pragma once
// Options shared by every benchmark suite (parsed by bench/main.cpp or `clviz --benchmark`).
#include <optional>
#include <string>
#include <vector>

#include "compute/core/device_select.hpp"
#include "compute/nbody/multi/tree_integration.hpp"
#include "compute/spectral/cube.hpp"

namespace clviz::bench {

struct BenchOptions {
    DeviceRequest device;
    std::string suite = "all";          // "nbody", "image", "gemm", "reduce", "mnf" or "all"
    std::vector<std::string> variants;  // empty: every variant of the suite
    std::vector<long long> sizes;       // empty: the suite's defaults (N, or image edge length)
    std::vector<CubeShape> mnfShapes;   // mnf suite: --sizes WxHxB,...; empty: its defaults
    std::vector<int> workGroups;        // empty: the suite's defaults
    std::vector<double> thetas;         // tree variant's opening angles; empty: 0.5
    std::optional<double> thetaFar;     // tree variant's far-field angle (0: off); empty: default
    int warmup = 3;
    int repeats = 15;
    bool quick = false;  // small sizes, few repeats: a smoke test
    bool wide = false;   // --wide: every metric and whole notes in the table (else 100 columns)
    bool cpuBaseline = true;  // also time the multi-threaded C++ baseline
    std::string jsonPath;     // empty: no JSON
    std::string csvPath;      // empty: no CSV
    bool tune = false;        // gemm, reduce: also a row with the best tile shape / work-group size
    std::string clblastTuning;  // gemm: a clblast_tuner_* JSON to import into the cache first
    // gemm: extra rows of the register-blocked variants at these tunings (GemmTuning::key() form)
    std::vector<std::string> gemmTunings;
    // --devices: N-body over this device set (chooseDevices syntax) against its first device
    // alone; empty: the usual one-device suites.
    std::string devices;
    // --tree-walk-pieces: with --devices, the tree's domains are walked in this many pieces per
    // device, each piece's accelerations passed on while the next is walked (1: none; 0: the
    // class's default, NbodyMultiDevice::kDefaultWalkPieces).
    int treeWalkPieces = 0;
    bool treeWalkHalving = true;  // --tree-walk-split: the pieces halve (cutIntoPieces) or are even
    bool treeSplitBuild = false;  // --tree-build split: NbodyMultiDevice::setTreeSplitBuild
    // --timeline: with --devices, each split row's last timed step as a trace
    // (bench/step_trace.hpp)
    std::string timelinePath;
    // --tree-integrate: with --devices or --mpi, who kicks and drifts the split tree's bodies
    // (compute/nbody/multi/tree_integration.hpp); auto: every device where they are identical.
    NbodyTreeIntegration treeIntegration = NbodyTreeIntegration::Auto;
    // --mpi: every rank of an mpirun job drives one device (by local rank) and shares the
    // N-body system; rank 0 prints. --mpi-timeout: seconds any collective may take.
    bool mpi = false;
    double mpiTimeoutSeconds = 60;
    // --mpi-exchange: how the slices travel (auto, collectives, window: NbodyMpiSimulation).
    std::string mpiExchange = "auto";
    // --mpi-poll-us: microseconds between tests of a collective; -1: by the device
    // (exchangePollMicroseconds: 0 on a GPU, 20 on a CPU).
    int mpiPollMicroseconds = -1;
};

// Parses argv (without the program name); throws clviz::Error on bad input. Returns false when
// --help was asked for (the help text is then printed).
bool parseBenchOptions(const std::vector<std::string>& args, BenchOptions& options);
std::string benchUsage(const std::string& program);

}  // namespace clviz::bench
