// Probe for issue 32 (not part of the CMake build; built like tree_phases.cpp): one device's part
// of the split build alone, on one GPU, so that a one-GPU machine times what each device of a
// split step runs before its exchange (box, keys, the window select, the sort of its window, its
// domain's tree and moments) and the commands beside them (the walk statistics' zeroing).
// For each N on the command line, a Plummer sphere (CHAIN_PRESTEPS=k first steps it k times with
// the tree on this device, as the bench's later rows see it; CHAIN_ORDER=morton hands the bodies
// over in the tree's sorted order, as the state is after a renumbering), split into CHAIN_P (4)
// even domains, or uneven ones: CHAIN_SHIFTS="0 0.01 ..." moves the inner bounds by those
// fractions of a slice, as a balancer leaves them, each in turn. Each domain is built CHAIN_REPS
// (9) times, the first two untimed. Each line: the domain, a hash of its slice of the sorted order
// (builds that claim the same order must print the same), the chain's span (the first command's
// start to the moments' end) and every command's median time by its kernel's name (the same name
// summed within one build), in milliseconds. CHAIN_LABEL tags the lines, so that two builds of the
// probe compare in one call.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "compute/core/compute_context.hpp"
#include "compute/core/profiling.hpp"
#include "compute/nbody/initial_conditions.hpp"
#include "compute/nbody/simulation.hpp"
#include "compute/nbody/tree/tree_force.hpp"
#include "probe_tree_simulation.hpp"

using namespace clviz;

namespace {

int envInt(const char* name, int fallback) {
    const char* v = std::getenv(name);
    return v && *v ? std::atoi(v) : fallback;
}

}  // namespace

int main(int argc, char** argv) {
    const int domains = std::max(1, envInt("CHAIN_P", 4));
    const int reps = std::max(3, envInt("CHAIN_REPS", 9));
    const int presteps = envInt("CHAIN_PRESTEPS", 0);
    const std::string label = std::getenv("CHAIN_LABEL") ? std::getenv("CHAIN_LABEL") : "";
    const bool morton =
        std::getenv("CHAIN_ORDER") && std::string(std::getenv("CHAIN_ORDER")) == "morton";
    std::vector<double> shifts;
    {
        std::istringstream in(std::getenv("CHAIN_SHIFTS") ? std::getenv("CHAIN_SHIFTS") : "0");
        for (double v; in >> v;)
            shifts.push_back(v);
    }
    auto cc = ComputeContext::create(DeviceRequest{});
    std::printf("device: %s\n", cc->info().name.c_str());
    const NbodyPreset preset = NbodyPreset::Plummer;
    const float softening = presetInfo(preset).softening;
    for (int a = 1; a < argc; ++a) {
        const std::size_t n = std::strtoull(argv[a], nullptr, 10);
        std::vector<Body> bodies = makePreset(preset, n, 1);
        if (presteps > 0) {
            auto sim = probeTreeSimulation(*cc, preset, bodies);
            sim->step(presteps);
            bodies = sim->readBodies();
        }
        std::vector<Float4> pos;
        for (const auto& b : bodies)
            pos.push_back(b.pos);
        cl::Buffer posBuf(cc->context(), CL_MEM_READ_WRITE, n * 16);
        cc->queue().enqueueWriteBuffer(posBuf, CL_TRUE, 0, n * 16, pos.data());
        if (morton) {  // the bodies in the tree's sorted order, as the state is after a renumbering
            cl::Buffer accBuf(cc->context(), CL_MEM_READ_WRITE, n * 16);
            TreeForce sorter(*cc);
            sorter.compute(posBuf, n, softening, accBuf);
            std::vector<Float4> sorted;
            for (unsigned i : sorter.readTree().sortedIndex)
                sorted.push_back(pos[i]);
            cc->queue().enqueueWriteBuffer(posBuf, CL_TRUE, 0, n * 16, sorted.data());
        }
        TreeForceOptions o;
        o.walk = TreeWalk::Group;
        TreeForce tree(*cc, o);
        for (const double shift : shifts) {
            // Uneven slices, as a balancer leaves them: every inner bound moved by shift * n / P,
            // alternately later and earlier.
            std::vector<std::size_t> bounds;
            for (int d = 0; d <= domains; ++d) {
                const double even = double(n) * d / domains;
                const double moved = d == 0 || d == domains
                                         ? even
                                         : even + (d % 2 ? 1 : -1) * shift * double(n) / domains;
                bounds.push_back(static_cast<std::size_t>(std::clamp(moved, 0.0, double(n))));
            }
            for (int d = 0; d < domains; ++d) {
                std::map<std::string, std::vector<double>> ms;
                std::vector<double> spans;
                unsigned long long orderHash = 0;
                for (int rep = 0; rep < reps; ++rep) {
                    tree.buildDomainSorted(posBuf, n, softening, bounds,
                                           static_cast<std::size_t>(d));
                    for (const auto& [stage, ev] : tree.lastEvents())
                        ev.wait();
                    if (rep + 1 == reps) {  // the domain's sorted order, to compare builds exactly
                        const cl_uint* index = tree.domainIndex();
                        unsigned long long h = 1469598103934665603ULL;
                        for (std::size_t k = bounds[d]; k < bounds[d + 1]; ++k)  // at its place
                            h = (h ^ index[k]) * 1099511628211ULL;
                        orderHash = h;
                    }
                    if (rep < 2) continue;
                    cl_ulong first = ~cl_ulong(0), momentsEnd = 0;
                    std::map<std::string, double> sum;
                    for (const auto& [stage, ev] : tree.lastEvents()) {
                        const cl_ulong s = ev.getProfilingInfo<CL_PROFILING_COMMAND_START>();
                        const cl_ulong e = ev.getProfilingInfo<CL_PROFILING_COMMAND_END>();
                        first = std::min(first, s);
                        if (stage == "tree-moments") momentsEnd = std::max(momentsEnd, e);
                        sum[tree.commandNames().of(ev)] += double(e - s) * 1e-6;
                    }
                    for (const auto& [k, t] : sum)
                        ms[k].push_back(t);
                    spans.push_back(momentsEnd > first ? double(momentsEnd - first) * 1e-6 : 0.0);
                }
                std::printf("%sn=%zu shift %g domain %d of %d: order %016llx chain %.3f ms |",
                            label.c_str(), n, shift, d, domains, orderHash, median(spans));
                for (const auto& [k, v] : ms)
                    std::printf(" %s %.3f", k.c_str(), median(v));
                std::printf("\n");
                std::fflush(stdout);
            }
        }
    }
}
