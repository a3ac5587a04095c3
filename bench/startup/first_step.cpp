// clviz-first-step: the headless start-up probe for the program binary cache. Times, from the
// start of main(), what the viewer does before its first frame can show anything: create the
// OpenCL context, build the demo's programs (from source, or from the binary cache in
// $XDG_CACHE_HOME/clviz/programs), and finish the first N-body step (or the image lab's first
// chain run). Links OpenCL only, so it runs where the windowed viewer cannot (the lent H200).
//   clviz-first-step [--demo nbody|image] [--n N] [--device-type cpu|gpu|all]
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "common/elapsed.hpp"
#include "common/error.hpp"
#include "compute/core/compute_context.hpp"
#include "compute/core/device_select.hpp"
#include "compute/core/program_cache.hpp"
#include "compute/image/pattern.hpp"
#include "compute/image/pipeline.hpp"
#include "compute/nbody/initial_conditions.hpp"
#include "compute/nbody/simulation.hpp"

using namespace clviz;
using Clock = std::chrono::steady_clock;

int main(int argc, char** argv) {
    const auto start = Clock::now();
    std::string demo = "nbody";
    std::size_t n = 0;
    DeviceRequest request;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        const char* v = i + 1 < argc ? argv[i + 1] : nullptr;
        if (a == "--demo" && v) {
            demo = argv[++i];
        } else if (a == "--n" && v) {
            n = std::strtoull(argv[++i], nullptr, 10);
        } else if (a == "--device-type" && v) {
            request.type = parseDeviceTypeFilter(argv[++i]);
        } else if (a == "--verbose") {
            ProgramCache::setVerbose(true);
        } else {
            std::fprintf(stderr,
                         "usage: clviz-first-step [--demo nbody|image] [--n N] "
                         "[--device-type cpu|gpu|all] [--verbose]\n");
            return 2;
        }
    }
    try {
        auto cc = ComputeContext::create(request);
        const double contextMs = msSince(start);
        const auto work = Clock::now();
        if (demo == "nbody") {
            // The viewer's first frame: the device's default variant on the default scene.
            NbodySimulation sim(*cc);
            if (!n) n = cc->info().kind == DeviceKind::Gpu ? 65536 : 2048;
            sim.load(makePreset(NbodyPreset::CollidingGalaxies, n));
            sim.step(1);
            sim.diagnostics();  // its kernel is built on the first frames too
            cc->queue().finish();
        } else if (demo == "image") {
            ImagePipeline pipeline(*cc);
            pipeline.setSource(makeTestPattern(1024, 768));
            pipeline.run();
        } else {
            std::fprintf(stderr, "clviz-first-step: --demo nbody or image\n");
            return 2;
        }
        int fromCache = 0, programs = 0;
        for (const auto& r : cc->programs().records()) {
            ++programs;
            fromCache += r.origin == ProgramOrigin::BinaryCache;
        }
        std::printf(
            "first-step demo=%s device=\"%s\" driver=%s context_ms=%.1f first_step_ms=%.1f "
            "total_ms=%.1f programs=%d from_cache=%d\n",
            demo.c_str(), cc->info().name.c_str(), cc->info().driverVersion.c_str(), contextMs,
            msSince(work), msSince(start), programs, fromCache);
        return 0;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "clviz-first-step: %s\n", e.what());
        return 1;
    }
}
