#include "app/nbody/mpi_run.hpp"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <thread>

#include "app/nbody/demo.hpp"
#include "common/error.hpp"
#include "common/flag_table.hpp"
#include "common/parse.hpp"
#include "common/settings_table.hpp"
#include "compute/core/compute_context.hpp"
#include "compute/core/device_select.hpp"
#include "compute/core/profiling.hpp"
#include "compute/nbody/initial_conditions.hpp"
#include "compute/nbody/mpi/leader.hpp"
#include "compute/nbody/mpi/mpi_simulation.hpp"
#include "compute/nbody/snapshot.hpp"

namespace clviz {

namespace {

// --mpi-timeout (checked by its flag), else 60 s.
double mpiTimeoutSeconds(const AppOptions& options) {
    const auto it = options.demoOptions.find("mpi-timeout");
    return it == options.demoOptions.end() ? 60.0 : parseNumber(it->second).value_or(60.0);
}

bool mpiViewer(const AppOptions& options) {
    return options.demoOptions.count("viewer") > 0;
}

// What an MPI run takes from --set and the sugar flags: the scene, the kernel and the physics.
struct MpiRunSettings {
    std::size_t n = 16384;
    NbodyPreset preset = NbodyPreset::Plummer;
    std::uint64_t seed = 1;
    std::string load;  // a snapshot instead of a preset
    NbodyKernelConfig config;
    NbodyIntegrator integrator = NbodyIntegrator::Leapfrog;
    NbodyParams params;
    bool dtSet = false, softeningSet = false;
};

MpiRunSettings parseSettings(const std::vector<Setting>& settings) {
    MpiRunSettings s;
    s.config.variant = NbodyVariant::Vectorized;
    for (const Setting& kv : settings) {
        const std::string& v = kv.value;
        if (kv.key == "n")
            s.n = std::size_t(settingInteger("n", v, 1, (long long)kMaxBodies));
        else if (kv.key == "preset")
            s.preset = parsePreset(v);
        else if (kv.key == "seed")
            s.seed = std::uint64_t(settingInteger("seed", v, 0, 1LL << 62));
        else if (kv.key == "load")
            s.load = v;
        else if (kv.key == "variant")
            s.config.variant = parseVariant(v);
        else if (kv.key == "wg")
            s.config.workGroupSize = int(settingInteger("wg", v, 0, 4096));
        else if (kv.key == "integrator")
            s.integrator = parseIntegrator(v);
        else if (kv.key == "dt")
            s.params.dt = float(settingNumber("dt", v, 0, 10, true)), s.dtSet = true;
        else if (kv.key == "softening")
            s.params.softening = float(settingNumber("softening", v, 0, 100, false)),
            s.softeningSet = true;
        else
            throw Error(
                "--mpi runs take n, preset, seed, load, variant, wg, integrator, dt and "
                "softening; '" +
                kv.key + "' is a viewer setting");
    }
    if (!s.dtSet) s.params.dt = presetInfo(s.preset).dt;
    if (!s.softeningSet) s.params.softening = presetInfo(s.preset).softening;
    return s;
}

// Rank 0's bodies: the snapshot, or the preset.
std::vector<Body> initialBodies(MpiRunSettings& s) {
    if (s.load.empty()) return makePreset(s.preset, s.n, s.seed);
    NbodySnapshot snap = loadSnapshot(s.load);
    if (snap.dt > 0 && !s.dtSet) s.params.dt = snap.dt;
    if (snap.softening > 0 && !s.softeningSet) s.params.softening = snap.softening;
    return std::move(snap.bodies);
}

// Test hooks for the CTest cases of a rank that ends early: CLVIZ_MPI_TEST_EXIT=R:S makes rank
// R exit before step S, CLVIZ_MPI_TEST_HANG=R:S makes it hang there (and
// CLVIZ_MPI_TEST_HANG_AT_END=R after the run, runMpiNbody).
struct FaultHook {
    int rank = -1;
    long long step = -1;
    static FaultHook read(const char* name, const char* format = "%d:%lld") {
        FaultHook h;
        if (const char* v = std::getenv(name)) std::sscanf(v, format, &h.rank, &h.step);
        return h;
    }
    bool now(int rank, long long step) const { return rank == this->rank && step == this->step; }
};

// Medians over the steps after the first three (program builds, first balancing).
void printTimings(const std::vector<NbodyMultiTimings>& steps) {
    if (steps.empty()) return;
    const NbodyMultiTimings& last = steps.back();
    auto medianOf = [&](auto field) {
        std::vector<double> v;
        for (const NbodyMultiTimings& t : steps)
            v.push_back(field(t));
        return median(v);
    };
    const double stepMs = medianOf([](const NbodyMultiTimings& t) { return t.stepMs; });
    std::printf(
        "median of %zu steps: %.3f ms per step (slowest rank), %.4g interactions/s, %d "
        "rebalances\n",
        steps.size(), stepMs, double(last.bodies) * double(last.bodies) / (stepMs * 1e-3),
        last.rebalances);
    for (std::size_t r = 0; r < last.devices.size(); ++r) {
        const NbodyDeviceTimings& d = last.devices[r];
        auto of = [&](double NbodyDeviceTimings::*f) {
            return medianOf([&](const NbodyMultiTimings& t) { return t.devices[r].*f; });
        };
        std::printf(
            "  %s: bodies %zu + %zu (%.1f%%), compute %.3f ms, exchange %.3f ms, wait "
            "%.3f ms\n",
            d.device.c_str(), d.begin, d.count, 100 * d.share, of(&NbodyDeviceTimings::computeMs),
            of(&NbodyDeviceTimings::exchangeMs), of(&NbodyDeviceTimings::waitMs));
    }
}

void run(const MpiSession& session, const AppOptions& options, MpiRunSettings& s) {
    const bool lead = session.rank() == 0;
    const auto platforms = queryPlatforms();
    const DeviceChoice choice = deviceForRank(platforms, options.device, session.localRank());
    ComputeContext cc(platforms, choice);
    std::fprintf(stderr, "clviz: rank %d of %d on %s: %s (%s)\n", session.rank(), session.size(),
                 session.host().c_str(), cc.info().name.c_str(), choice.reason.c_str());
    DeadlineCollectives mpi(session, mpiTimeoutSeconds(options),
                            exchangePollMicroseconds(cc.info().kind == DeviceKind::Cpu));
    NbodyMpiSimulation sim(cc, session, mpi, NbodyEnvironment::fromProcessEnvironment());
    sim.setKernelConfig(s.config);
    sim.setIntegrator(s.integrator);
    sim.setParams(s.params);
    sim.load(lead ? initialBodies(s) : std::vector<Body>{});
    const NbodyDiagnostics start = sim.diagnostics();
    if (lead)
        std::printf("N = %zu on %d ranks, %s, energy %.9g\n", sim.bodyCount(), session.size(),
                    describe(sim.local().effectiveKernelConfig()).c_str(), start.total);

    const FaultHook exitHook = FaultHook::read("CLVIZ_MPI_TEST_EXIT");
    const FaultHook hangHook = FaultHook::read("CLVIZ_MPI_TEST_HANG");
    const long long steps = options.frames.value_or(100);
    auto lastReport = std::chrono::steady_clock::now();
    std::vector<NbodyMultiTimings> timings;
    for (long long k = 0; k < steps; ++k) {
        if (exitHook.now(session.rank(), k)) std::_Exit(0);
        while (hangHook.now(session.rank(), k))
            std::this_thread::sleep_for(std::chrono::seconds(1));
        sim.step(1);
        const NbodyMultiTimings t = sim.lastTimings();  // collective: every rank, every step
        if (k >= 3 || steps <= 3) timings.push_back(t);
        if (lead && std::chrono::steady_clock::now() - lastReport > std::chrono::seconds(2)) {
            lastReport = std::chrono::steady_clock::now();
            std::fprintf(stderr, "step %lld of %lld\n", k + 1, steps);
        }
    }
    const NbodyDiagnostics end = sim.diagnostics();
    const std::vector<Body> bodies = sim.readBodies();
    if (!lead) return;
    std::printf(
        "after %lld steps (t = %.6g): energy %.9g, relative drift %.3g, momentum (%.3g, "
        "%.3g, %.3g)\n",
        sim.stepsTaken(), sim.time(), end.total, end.relativeEnergyDrift, end.momentum[0],
        end.momentum[1], end.momentum[2]);
    if (!end.finite()) std::printf("%s\n", end.message().c_str());
    printTimings(timings);
    if (!options.savePath.empty()) {
        NbodySnapshot snap;
        snap.bodies = bodies;
        snap.time = sim.time();
        snap.dt = s.params.dt;
        snap.softening = s.params.softening;
        saveSnapshot(options.savePath, snap);
        std::printf("saved %zu bodies to %s\n", bodies.size(), options.savePath.c_str());
    }
}

// --viewer: rank 0 runs the viewer, whose N-body demo splits its bodies over the ranks; the
// others follow its commands on their devices until it closes.
int runViewerAndFollowers(const MpiSession& session, const AppOptions& options,
                          const DemoRunServices& shell) {
    DeadlineCollectives exchange(session, mpiTimeoutSeconds(options));
    DeadlineCollectives commands(session, 1e9,
                                 1000);  // the user may pause for as long as they like
    const NbodyMpiLink link{&session, &exchange, &commands};
    if (session.rank() != 0) {
        const auto platforms = queryPlatforms();
        const DeviceChoice choice = deviceForRank(platforms, options.device, session.localRank());
        ComputeContext cc(platforms, choice);
        std::fprintf(stderr, "clviz: rank %d of %d on %s follows rank 0's viewer on %s (%s)\n",
                     session.rank(), session.size(), session.host().c_str(), cc.info().name.c_str(),
                     choice.reason.c_str());
        followNbodyLeader(cc, link, NbodyEnvironment::fromProcessEnvironment());
        return 0;
    }
    int status = 0;
    {
        status = shell.runViewer([&link] { return makeNbodyDemo(&link); });
    }
    releaseNbodyFollowers(link);
    return status;
}

}  // namespace

int runMpiNbody(const AppOptions& options, const DemoRunServices& shell) {
    MpiRunSettings settings;
    try {
        // Every rank refuses the same mistakes; the viewer's settings go to its demo.
        if (!mpiViewer(options)) settings = parseSettings(options.settings);
    } catch (const Error& e) {
        std::fprintf(stderr, "clviz: error: %s\n", e.what());
        return 2;
    }
    MpiSession session;
    session.setShutdownTimeout(mpiTimeoutSeconds(options));
    try {
        // A device the command line names that this rank's machine lacks: a bad command line
        // (status 2), as in the viewer.
        shell.checkNamedDevices();
        if (mpiViewer(options)) return runViewerAndFollowers(session, options, shell);
        run(session, options, settings);
    } catch (const UsageError& e) {
        session.abort(e.what(), 2);
    } catch (const std::exception& e) {
        // The other ranks would wait for this one at the next exchange: end them all now.
        session.abort(e.what(), 1);
    }
    // Test hook: rank R hangs after its last collective (CLVIZ_MPI_TEST_HANG_AT_END=R); the
    // session's closing barrier must end the run.
    const FaultHook atEnd = FaultHook::read("CLVIZ_MPI_TEST_HANG_AT_END", "%d");
    while (atEnd.rank == session.rank())
        std::this_thread::sleep_for(std::chrono::seconds(1));
    return 0;
}

std::vector<DemoMode> nbodyDemoModes() {
    return {{"--mpi",
             "headless run under mpirun: each rank drives one device (its local rank picks it); "
             "--frames steps [100], --n, --preset, --variant, --set integrator|dt|softening=..., "
             "--save FILE (rank 0 writes the snapshot); docs/scaling.md",
             runMpiNbody}};
}

}  // namespace clviz
