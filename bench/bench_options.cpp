#include "bench/bench_options.hpp"

#include <algorithm>

#include <cstdlib>
#include <sstream>

#include "common/error.hpp"
#include "common/flag_table.hpp"
#include "common/parse.hpp"
#include "common/quoted_path.hpp"
#include "common/text.hpp"
#include "compute/linalg/gemm.hpp"
#include "compute/nbody/body.hpp"
#include "compute/nbody/initial_conditions.hpp"
#include "compute/nbody/multi/multi_device_simulation.hpp"
#include "compute/nbody/param_ranges.hpp"
#include "compute/nbody/tree/tree_force.hpp"

namespace clviz::bench {

namespace {

std::vector<std::string> splitList(const std::string& s) {
    std::vector<std::string> out;
    std::stringstream in(s);
    for (std::string item; std::getline(in, item, ',');)
        if (!item.empty()) out.push_back(item);
    return out;
}

long long parseCount(const std::string& flag, const std::string& text, long long min,
                     long long max) {
    std::string t = text;
    long long mult = 1;
    if (!t.empty() && (t.back() == 'k' || t.back() == 'K'))
        mult = 1024, t.pop_back();
    else if (!t.empty() && (t.back() == 'm' || t.back() == 'M'))
        mult = 1024 * 1024, t.pop_back();
    const auto parsed = parseInteger(t);
    if (!parsed) throw UsageError(flag + " expects a number, got " + quotedPath(text));
    if (*parsed < min / mult || *parsed > max / mult || *parsed * mult < min)  // no overflow
        throw UsageError(flag + " " + text + " is out of range [" + std::to_string(min) + ", " +
                         std::to_string(max) + "]");
    return *parsed * mult;
}

using Takes = FlagRow::Takes;

const char* const kSuites[] = {"nbody", "image", "gemm", "reduce", "mnf", "all"};

// Every option of clviz-bench, once. `help` is set when --help was asked for.
std::vector<FlagRow> benchFlags(BenchOptions& o, bool& help) {
    const std::string run = "What to time";
    const std::string out = "Output";
    const std::string device = "Device";
    return {
        {"--suite", Takes::Value, "nbody|image|gemm|reduce|mnf|all", "which kernels to time [all]",
         run,
         [&o](const std::string& v) {
             if (std::find(std::begin(kSuites), std::end(kSuites), v) == std::end(kSuites))
                 throw UsageError("--suite must be nbody, image, gemm, reduce, mnf or all (got " +
                                  quotedPath(v) + ")");
             o.suite = v;
         }},
        {"--variants", Takes::Value, "a,b,...", "only these kernel variants [all]", run,
         [&o](const std::string& v) { o.variants = splitList(v); }},
        {"--sizes", Takes::Value, "n,...",
         "N bodies (nbody, at most " + std::to_string(kMaxBodies) +
             "), image edge in pixels (image), matrix edge (gemm) or KiB of data (reduce); "
             "suffixes k and m multiply by 1024 and 1024^2; WxHxB cubes for mnf [145x145x200, "
             "614x512x224, 614x1087x224]",
         run,
         [&o](const std::string& v) {
             o.sizes.clear();
             o.mnfShapes.clear();
             for (const auto& s : splitList(v)) {
                 if (std::count(s.begin(), s.end(), 'x') == 2) {  // a cube, WxHxB (mnf suite)
                     const auto shape = parseCubeShape(s);
                     if (!shape)
                         throw UsageError("--sizes: " + quotedPath(s) +
                                          " is not a WxHxB cube size");
                     o.mnfShapes.push_back(*shape);
                     continue;
                 }
                 o.sizes.push_back(parseCount("--sizes", s, 1, static_cast<long long>(kMaxBodies)));
             }
         }},
        {"--wg", Takes::Value, "n,...", "work-group sizes to sweep [per suite]", run,
         [&o](const std::string& v) {
             o.workGroups.clear();
             for (const auto& s : splitList(v))
                 o.workGroups.push_back(static_cast<int>(parseCount("--wg", s, 1, 4096)));
         }},
        {"--theta", Takes::Value, "t,...", "opening angles of the tree variant [0.5]", run,
         [&o](const std::string& v) {
             o.thetas.clear();
             for (const auto& s : splitList(v)) {
                 const auto t = parseNumber(s);
                 if (!t || !(*t >= 0 && *t <= 2))
                     throw UsageError("--theta takes numbers in [0, 2] (got " + quotedPath(s) +
                                      ")");
                 o.thetas.push_back(*t);
             }
         }},
        {"--theta-far", Takes::Value, "t",
         "far-field angle of the tree variant, " + kThetaFarRange.range() + ", 0: off [" +
             shortNumber(presetInfo(NbodyPreset::Plummer).thetaFar) + ", the Plummer preset's]",
         run,
         [&o](const std::string& v) {
             const auto t = parseNumber(v);
             if (!t || !kThetaFarRange.contains(*t))
                 throw UsageError("--theta-far takes a number " + kThetaFarRange.range() +
                                  " (got " + quotedPath(v) + ")");
             o.thetaFar = *t;
         }},
        {"--warmup", Takes::Value, "N", "untimed runs before timing [3]", run,
         [&o](const std::string& v) {
             o.warmup = static_cast<int>(parseCount("--warmup", v, 0, 1000));
         }},
        {"--repeats", Takes::Value, "N", "timed runs; the median is reported [15]", run,
         [&o](const std::string& v) {
             o.repeats = static_cast<int>(parseCount("--repeats", v, 1, 100000));
         }},
        {"--quick", Takes::Nothing, "", "small sizes and few repeats (smoke test)", run,
         [&o](const std::string&) { o.quick = true; }},
        {"--wide", Takes::Nothing, "", "every metric and whole notes (default: 100 columns)", run,
         [&o](const std::string&) { o.wide = true; }},
        {"--no-cpu-baseline", Takes::Nothing, "", "skip the multi-threaded C++ baseline", run,
         [&o](const std::string&) { o.cpuBaseline = false; }},
        {"--tune", Takes::Nothing, "",
         "gemm, reduce: add a row with the best of a few tile shapes (gemm) or work-group sizes "
         "(reduce)",
         run, [&o](const std::string&) { o.tune = true; }},
        {"--clblast-tuning", Takes::Value, "FILE",
         "gemm: import clblast_tuner_xgemm's JSON into the per-device cache (beside the program "
         "cache) first",
         run, [&o](const std::string& v) { o.clblastTuning = v; }},
        {"--gemm-tuning", Takes::Value, "KEY",
         "gemm: also a row of gemm-regblock and gemm-double-buffer at this tuning, e.g. \"BM=128 "
         "BN=64 BK=16 TM=8 TN=8 REGCAP=128\" (REGCAP: NVIDIA only), or of gemm-tf32 where the "
         "key names WM or WN (\"BM=256 BN=128 BK=16 WM=64 WN=64\"; BULK=1: packed operands, "
         "bulk-copied stages, the packing counted in the row's time); repeatable",
         run,
         [&o](const std::string& v) {
             try {
                 parseGemmTuning(v);  // a typo stops the run here, not after the probes
             } catch (const Error& e) {
                 throw UsageError(std::string("--gemm-tuning: ") + e.what());
             }
             o.gemmTunings.push_back(v);
         }},
        {"--json", Takes::Value, "FILE", "also write the results there as JSON", out,
         [&o](const std::string& v) { o.jsonPath = v; }},
        {"--csv", Takes::Value, "FILE", "also write the results there as CSV", out,
         [&o](const std::string& v) { o.csvPath = v; }},
        {"-p,--platform", Takes::Value, "P", "platform index or name part", device,
         [&o](const std::string& v) { o.device.platform = v; }},
        {"-d,--device", Takes::Value, "D", "device index or name part", device,
         [&o](const std::string& v) { o.device.device = v; }},
        {"--device-type", Takes::Value, "cpu|gpu|all", "restrict the automatic choice", device,
         [&o](const std::string& v) {
             try {
                 o.device.type = parseDeviceTypeFilter(v);
             } catch (const Error& e) {
                 throw UsageError(e.what());
             }
         }},
        {"--devices", Takes::Value, "SET",
         "N-body split over several devices (all, gpu, cpu, 0,1 or P.D,P.D as --list-devices "
         "numbers them), timed against the set's first device alone",
         device, [&o](const std::string& v) { o.devices = v; }},
        {"--tree-walk-pieces", Takes::Value, "K",
         "with --devices: walk each device's tree domain in K pieces, each passed on to the other "
         "devices while the next is walked (1: the whole domain, then the exchange) [" +
             std::to_string(NbodyMultiDevice::kDefaultWalkPieces) + "]",
         device,
         [&o](const std::string& v) {
             o.treeWalkPieces = static_cast<int>(
                 parseCount("--tree-walk-pieces", v, 1, NbodyMultiDevice::kMostWalkPieces));
         }},
        {"--tree-build", Takes::Value, "whole|split",
         "with --devices: every device builds the whole tree, or each computes its own domain's "
         "cells and the devices exchange the cells each other's walk opens (the same forces) "
         "[whole]",
         device,
         [&o](const std::string& v) {
             if (v != "whole" && v != "split")
                 throw UsageError("--tree-build takes whole or split (got '" + v + "')");
             o.treeSplitBuild = v == "split";
         }},
        {"--timeline", Takes::Value, "FILE",
         "with --devices: write each split row's last timed step, every device's kernels and "
         "copies and the step's wall clock on one clock, as a trace for chrome://tracing or "
         "ui.perfetto.dev",
         device, [&o](const std::string& v) { o.timelinePath = v; }},
        {"--tree-walk-split", Takes::Value, "even|halving",
         "with --devices: the walk pieces even, or each half of what is left of the domain with "
         "the last two equal (a smaller last piece, whose copies the walk cannot hide) [halving]",
         device,
         [&o](const std::string& v) {
             if (v != "even" && v != "halving")
                 throw UsageError("--tree-walk-split takes even or halving (got '" + v + "')");
             o.treeWalkHalving = v == "halving";
         }},
        {"--tree-walk-halving", Takes::Nothing, "",
         "with --devices: the same as --tree-walk-split halving (the default now; kept for "
         "scripts)",
         device, [&o](const std::string&) { o.treeWalkHalving = true; }},
        {"--tree-integrate", Takes::Value, "MODE",
         "with --devices or --mpi: who kicks and drifts the split tree's bodies: owners (each "
         "device its slice, then the positions all-gathered), replicated (every device every body, "
         "no "
         "position exchange; identical devices only) or auto (replicated where the devices are "
         "identical) [auto]",
         device,
         [&o](const std::string& v) {
             try {
                 o.treeIntegration = parseTreeIntegration(v);
             } catch (const Error& e) {
                 throw UsageError(std::string("--tree-integrate: ") + e.what());
             }
         }},
        {"--mpi", Takes::Nothing, "",
         "under mpirun: each rank drives one device (local rank -> device), the N-body system "
         "split over the ranks",
         device, [&o](const std::string&) { o.mpi = true; }},
        {"--mpi-timeout", Takes::Value, "S", "end the run when an MPI exchange takes longer [60]",
         device,
         [&o](const std::string& v) {
             const auto t = parseNumber(v);
             if (!t || !(*t > 0) || *t > 86400)
                 throw UsageError("--mpi-timeout takes seconds in (0, 86400] (got " +
                                  quotedPath(v) + ")");
             o.mpiTimeoutSeconds = *t;
         }},
        {"--mpi-exchange", Takes::Value, "auto|collectives|window",
         "with --mpi: how the slices travel: MPI collectives, or memory every rank of one host "
         "maps (auto: the window when every rank shares a host) [auto]",
         device,
         [&o](const std::string& v) {
             if (v != "auto" && v != "collectives" && v != "window")
                 throw UsageError("--mpi-exchange takes auto, collectives or window (got " +
                                  quotedPath(v) + ")");
             o.mpiExchange = v;
         }},
        {"--mpi-poll-us", Takes::Value, "US",
         "with --mpi: microseconds between tests of an exchange (0: back to back) [0 on a GPU, "
         "20 on a CPU]",
         device,
         [&o](const std::string& v) {
             const auto t = parseNumber(v);
             if (!t || *t < 0 || *t > 1e6 || *t != static_cast<int>(*t))
                 throw UsageError("--mpi-poll-us takes whole microseconds in [0, 1000000] (got " +
                                  quotedPath(v) + ")");
             o.mpiPollMicroseconds = static_cast<int>(*t);
         }},
        {"-h,--help", Takes::Nothing, "", "this text", "Other",
         [&help](const std::string&) { help = true; }},
    };
}

}  // namespace

std::string benchUsage(const std::string& program) {
    BenchOptions unused;
    bool help = false;
    return flagTableHelp(benchFlags(unused, help),
                         "Usage: " + program +
                             " [options]\nHeadless OpenCL benchmark for clviz: never opens a "
                             "window.\n",
                         "");
}

bool parseBenchOptions(const std::vector<std::string>& args, BenchOptions& o) {
    bool help = false;
    parseFlagTable(benchFlags(o, help), args);
    return !help;
}

}  // namespace clviz::bench
