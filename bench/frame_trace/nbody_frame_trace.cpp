// clviz-nbody-frame-trace: the N-body viewer's compute side, frame by frame, headless (no window,
// links OpenCL only, so it runs where a GL carry does not fit). Each frame does what the viewer's
// step does on the device: poll the diagnostics (or, with --blocking, run them the old way:
// NbodySystem::diagnostics(), which waits for an O(N^2) pass), enqueue the step, then wait until
// the device has done everything enqueued so far. A frame's time is so the device time the frame
// asked for plus the host's share, without drawing: a stall from diagnostics shows as one long
// frame, the way it does in the viewer, where GL and CL take turns on the GPU. The diagnostics
// schedule is the viewer's (every N frames, stretched to keep under 5% of the time; slices of a
// quarter of the mean frame), and so is the tree's force-error sample every 3 s; the first
// diagnostics come at frame N, inside the trace (the viewer's come at once, in its first frame).
//   clviz-nbody-frame-trace [--variant V] [--n N] [--preset P] [--frames F] [--diagnostics N]
//                           [--blocking] [--csv FILE] [--device-type cpu|gpu|all]
// Prints common/frame_trace's summary line (median, max, max / median after the first frame) and
// how many diagnostics results came in, how (the method label) and over how many frames.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <numeric>
#include <string>

#include "common/elapsed.hpp"
#include "common/error.hpp"
#include "common/frame_trace.hpp"
#include "compute/core/compute_context.hpp"
#include "compute/core/device_select.hpp"
#include "compute/nbody/initial_conditions.hpp"
#include "compute/nbody/simulation.hpp"

using namespace clviz;
using Clock = std::chrono::steady_clock;

namespace {

// The viewer's figures (app/nbody/demo.cpp, demo.hpp).
constexpr double kDiagnosticsBudget = 0.05;
constexpr double kSliceShare = 0.25;
constexpr double kFirstSliceBudgetMs = 2.0;
constexpr double kAccuracyEverySeconds = 3;
constexpr std::size_t kMeanFrames = 60;  // the rolling mean the slice budget is taken from

int usage() {
    std::fprintf(stderr,
                 "usage: clviz-nbody-frame-trace [--variant V] [--n N] [--preset P] [--frames F] "
                 "[--diagnostics N] [--blocking] [--csv FILE] [--device-type cpu|gpu|all]\n");
    return 2;
}

}  // namespace

int main(int argc, char** argv) {
    std::string variant = "tree", preset = "collision", csv;
    std::size_t n = 65536;
    long frames = 300;
    int every = 30;
    bool blocking = false;
    DeviceRequest request;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        const bool hasValue = i + 1 < argc;
        if (a == "--variant" && hasValue) {
            variant = argv[++i];
        } else if (a == "--n" && hasValue) {
            n = std::strtoull(argv[++i], nullptr, 10);
        } else if (a == "--preset" && hasValue) {
            preset = argv[++i];
        } else if (a == "--frames" && hasValue) {
            frames = std::strtol(argv[++i], nullptr, 10);
        } else if (a == "--diagnostics" && hasValue) {
            every = std::atoi(argv[++i]);
        } else if (a == "--blocking") {
            blocking = true;
        } else if (a == "--csv" && hasValue) {
            csv = argv[++i];
        } else if (a == "--device-type" && hasValue) {
            request.type = parseDeviceTypeFilter(argv[++i]);
        } else {
            return usage();
        }
    }
    if (n == 0 || frames < 2 || every < 0) return usage();
    try {
        auto cc = ComputeContext::create(request);
        NbodySimulation sim(*cc);
        const NbodyPreset p = parsePreset(preset);
        sim.load(makePreset(p, n));
        sim.setParams({presetInfo(p).dt, presetInfo(p).softening, 1.0f});
        sim.setVariant(parseVariant(variant));
        sim.step(1);  // builds the kernels before the first frame
        cc->queue().finish();

        FrameTrace trace;
        std::deque<double> recent;
        int sinceDiagnostics = 0, results = 0, framesSoFar = 0, framesTaken = 0;
        double lastDiagnosticsMs = 0, lastAccuracyAt = -1e9;
        bool accuracyInFlight = false;
        NbodyDiagnostics last;
        const auto start = Clock::now();
        for (long f = 0; f < frames; ++f) {
            const auto t0 = Clock::now();
            const double meanMs =
                recent.empty() ? 0
                               : std::accumulate(recent.begin(), recent.end(), 0.0) / recent.size();
            auto take = [&](const NbodyDiagnostics& d) {
                last = d;
                lastDiagnosticsMs = d.ms;
                ++results;
                framesTaken = framesSoFar;
                const double now = msSince(start) / 1e3;
                if (variant == "tree" && !accuracyInFlight &&
                    now - lastAccuracyAt >= kAccuracyEverySeconds) {
                    lastAccuracyAt = now;
                    if (blocking)
                        sim.forceAccuracy(256);
                    else
                        accuracyInFlight = sim.beginForceAccuracy(256);
                }
            };
            if (accuracyInFlight && sim.pollForceAccuracy()) accuracyInFlight = false;
            if (sim.diagnosticsInFlight()) {
                ++framesSoFar;
                if (auto d = sim.pollDiagnostics()) take(*d);
            }
            sim.step(1);
            const double needed =
                meanMs > 0 ? lastDiagnosticsMs / (kDiagnosticsBudget * meanMs) : 0;
            const int interval = std::max(every, int(std::min(needed, 1e6)));
            if (every > 0 && ++sinceDiagnostics >= interval && !sim.diagnosticsInFlight()) {
                sinceDiagnostics = 0;
                framesSoFar = 0;
                if (blocking) {
                    NbodyDiagnostics d = sim.diagnostics();
                    framesSoFar = 1;
                    take(d);
                } else {
                    sim.beginDiagnostics(meanMs > 0 ? kSliceShare * meanMs : kFirstSliceBudgetMs);
                }
            }
            cc->queue().finish();  // the frame waits for what it asked of the device
            const double ms = msSince(t0);
            trace.add(ms);
            recent.push_back(ms);
            if (recent.size() > kMeanFrames) recent.pop_front();
        }
        std::printf("%s\n", describe(trace.summary(1), 1).c_str());
        std::printf(
            "device %s, %s, N=%zu, %s, diagnostics every %d (%s): %d results, last: energy %s, "
            "%.3f ms device time in %d slice(s), longest %.3f ms, over %d frame(s)\n",
            cc->info().name.c_str(), variant.c_str(), n, preset.c_str(), every,
            blocking ? "blocking" : "never waiting", results, last.method.c_str(), last.ms,
            last.slices, last.maxSliceMs, framesTaken);
        if (!csv.empty()) trace.writeCsv(csv);
        return 0;
    } catch (const Error& e) {
        std::fprintf(stderr, "clviz-nbody-frame-trace: %s\n", e.what());
        return 1;
    }
}
