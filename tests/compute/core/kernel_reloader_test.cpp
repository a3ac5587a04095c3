// Live kernel reload: an edited kernel file is rebuilt in the background and installed; the
// simulation keeps its state and runs the new code; a syntax error keeps the last good build and
// reports the log with the line; the polling fallback sees edits too; the reference check notices
// an edit that breaks the physics.
#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <vector>

#include "common/error.hpp"
#include "compute/core/compute_context.hpp"
#include "compute/core/kernel_reloader.hpp"
#include "compute/core/kernel_source.hpp"
#include "compute/image/reference_check.hpp"
#include "compute/nbody/initial_conditions.hpp"
#include "compute/nbody/reference_check.hpp"
#include "compute/nbody/simulation.hpp"

#include "tests/support/editor_save.hpp"
#include "tests/support/temp_dir.hpp"

using namespace clviz;
namespace fs = std::filesystem;

namespace {

// A copy of every embedded kernel file (headers in their folders) in a fresh directory that
// kernelSource() then reads.
struct KernelCopy {
    test::TempDir tmp;  // removed with the object
    fs::path dir = tmp.path();
    KernelCopy() {
        fs::create_directories(dir);
        setKernelDirectory("");
        for (const auto& name : kernelFileNames()) {
            fs::create_directories((dir / name).parent_path());
            std::ofstream(dir / name, std::ios::binary) << kernelFile(name);
        }
        setKernelDirectory(dir.string());
    }
    ~KernelCopy() { setKernelDirectory(""); }
    std::string read(const std::string& name) const {
        std::ifstream in(dir / name, std::ios::binary);
        return std::string(std::istreambuf_iterator<char>(in), {});
    }
    void save(const std::string& name, const std::string& text) const {
        test::saveAsEditorsDo(dir / name, text);
    }
};

std::string replaced(std::string text, const std::string& from, const std::string& to) {
    const auto at = text.find(from);
    if (at == std::string::npos) throw std::logic_error("'" + from + "' not found");
    return text.replace(at, from.size(), to);
}

// Memory-only programs, so the test never depends on a cache directory.
std::unique_ptr<ComputeContext> freshContext() {
    ::setenv("CLVIZ_PROGRAM_CACHE", "off", 1);
    return ComputeContext::create(DeviceRequest{});
}

const std::string kDrift = "p.xyz = mad(v.xyz, (real3)(dt), p.xyz);";

}  // namespace

TEST(KernelReloader, EditRebuildsAndTheSimulationKeepsItsState) {
    KernelCopy kernels;
    auto cc = freshContext();
    NbodySimulation sim(*cc);
    sim.setIntegrator(NbodyIntegrator::Leapfrog);
    sim.load(makePreset(NbodyPreset::Plummer, 97, 3));
    sim.step(2);
    EXPECT_TRUE(checkNbodyAgainstReference(sim, 16).ok);

    KernelReloader reloader(cc->programs(), kernels.dir.string());
    const long long generation = cc->programs().generation();
    // The edit: leapfrog's drift no longer moves the bodies.
    kernels.save("nbody_integrate.cl",
                 replaced(kernels.read("nbody_integrate.cl"), kDrift, "p.xyz = p.xyz;"));
    const auto events = reloader.waitForReload(120);
    ASSERT_EQ(events.size(), 1u);
    EXPECT_TRUE(events[0].ok) << events[0].message;
    EXPECT_TRUE(events[0].installed);
    EXPECT_EQ(events[0].file, "nbody_integrate.cl");
    EXPECT_GT(cc->programs().generation(), generation);

    const std::vector<Body> before = sim.readBodies();
    const long long steps = sim.stepsTaken();
    sim.reloadKernels();
    EXPECT_EQ(sim.readBodies(), before) << "the reload must keep the state";
    EXPECT_EQ(sim.stepsTaken(), steps);
    sim.step(1);
    const std::vector<Body> after = sim.readBodies();
    for (std::size_t i = 0; i < after.size(); ++i) {
        ASSERT_EQ(after[i].pos, before[i].pos) << "body " << i << " moved: the old kernel ran";
    }
    EXPECT_NE(after[0].vel, before[0].vel) << "the kicks still run";

    const ReferenceCheck check = checkNbodyAgainstReference(sim, 16);
    EXPECT_FALSE(check.ok) << check.message;
    EXPECT_NE(check.message.find("MISMATCH"), std::string::npos);
}

// The pairs variant's kernels live in their own class (PairForce): a reload must reach them too.
TEST(KernelReloader, AnEditOfThePairsKernelRunsAfterTheReload) {
    KernelCopy kernels;
    auto cc = freshContext();
    NbodySimulation sim(*cc);
    sim.setVariant(NbodyVariant::Pairs);
    sim.load(makePreset(NbodyPreset::Plummer, 97, 5));
    sim.step(1);
    const auto accelerationsNow = [&] {
        const auto acc = sim.readAccelerationsDouble();
        return std::vector<double>{acc[0], acc[1], acc[2]};  // body 0's, as computed by the step
    };
    EXPECT_NE(accelerationsNow(), std::vector<double>(3, 0.0));

    KernelReloader reloader(cc->programs(), kernels.dir.string());
    // The edit: the pull inside a block (all of it at N = 97) becomes zero.
    kernels.save("nbody_pairs.cl",
                 replaced(kernels.read("nbody_pairs.cl"), "GRAVITY_PULL(p[k], q, eps2,",
                          "GRAVITY_PULL(p[k], q * 0.0f, eps2,"));
    const auto events = reloader.waitForReload(120);
    ASSERT_EQ(events.size(), 1u);
    EXPECT_TRUE(events[0].ok) << events[0].message;
    sim.reloadKernels();
    sim.step(1);
    EXPECT_EQ(accelerationsNow(), std::vector<double>(3, 0.0)) << "the old pairs kernel ran";
}

// The gravity interaction lives in a shared header (kernels/common/gravity.clh): editing it
// rebuilds the all-pairs and the pairs-once programs both, and both run the edit.
TEST(KernelReloader, AHeaderEditReachesEveryForceKernelThatIncludesIt) {
    KernelCopy kernels;
    auto cc = freshContext();
    NbodySimulation tiled(*cc), pairs(*cc);
    tiled.setVariant(NbodyVariant::Tiled);
    pairs.setVariant(NbodyVariant::Pairs);
    for (NbodySimulation* sim : {&tiled, &pairs}) {
        sim->load(makePreset(NbodyPreset::Plummer, 61, 5));
        sim->step(1);
    }
    auto body0 = [](NbodySimulation& sim) {
        const auto acc = sim.readAccelerationsDouble();
        return std::vector<double>{acc[0], acc[1], acc[2]};
    };
    ASSERT_NE(body0(tiled), std::vector<double>(3, 0.0));
    ASSERT_NE(body0(pairs), std::vector<double>(3, 0.0));

    KernelReloader reloader(cc->programs(), kernels.dir.string());
    kernels.save("common/gravity.clh",
                 replaced(kernels.read("common/gravity.clh"),
                          "const real s = (q).w * (inv * inv * inv);", "const real s = 0;"));
    auto events = reloader.waitForReload(120);
    while (reloader.busy()) {
        const auto more = reloader.waitForReload(120);
        events.insert(events.end(), more.begin(), more.end());
    }
    std::vector<std::string> files;
    for (const auto& e : events) {
        EXPECT_TRUE(e.installed) << e.message;
        files.push_back(e.file);
    }
    EXPECT_NE(std::find(files.begin(), files.end(), "nbody_force.cl"), files.end());
    EXPECT_NE(std::find(files.begin(), files.end(), "nbody_pairs.cl"), files.end());
    EXPECT_EQ(std::find(files.begin(), files.end(), "nbody_integrate.cl"), files.end())
        << "it does not include gravity.clh";
    for (NbodySimulation* sim : {&tiled, &pairs}) {
        sim->reloadKernels();
        sim->step(1);
        EXPECT_EQ(body0(*sim), std::vector<double>(3, 0.0)) << "the old interaction ran";
    }
}

TEST(KernelReloader, SyntaxErrorKeepsTheLastGoodBuild) {
    KernelCopy kernels;
    auto cc = freshContext();
    NbodySimulation sim(*cc);
    sim.load(makePreset(NbodyPreset::Plummer, 31, 4));
    sim.step(1);
    KernelReloader reloader(cc->programs(), kernels.dir.string());
    const long long generation = cc->programs().generation();

    const std::string good = kernels.read("nbody_integrate.cl");
    const std::string broken = replaced(good, kDrift, "p.xyz = mad(v.xyz, (real3)(dt), );");
    kernels.save("nbody_integrate.cl", broken);
    const auto events = reloader.waitForReload(120);
    ASSERT_EQ(events.size(), 1u);
    EXPECT_FALSE(events[0].ok);
    EXPECT_FALSE(events[0].installed);
    // The log names the line of the error.
    const int line =
        1 + static_cast<int>(std::count(
                broken.begin(), broken.begin() + broken.find("mad(v.xyz, (real3)(dt), )"), '\n'));
    EXPECT_NE(events[0].message.find("nbody_integrate.cl:" + std::to_string(line) + ":"),
              std::string::npos)
        << "line " << line << " not in:\n"
        << events[0].message;
    EXPECT_NE(events[0].message.find("keeps running"), std::string::npos);
    EXPECT_EQ(cc->programs().generation(), generation) << "nothing installed";
    bool recorded = false;
    for (const auto& r : cc->programs().records())
        recorded |= r.file == "nbody_integrate.cl" && !r.failure.empty();
    EXPECT_TRUE(recorded);

    // The simulation still runs on the last good build and matches the reference.
    sim.reloadKernels();
    sim.step(1);
    EXPECT_TRUE(checkNbodyAgainstReference(sim, 16).ok);

    // Fixing the file installs again and clears the failure.
    kernels.save("nbody_integrate.cl", good + "\n// fixed\n");
    const auto fixed = reloader.waitForReload(120);
    ASSERT_EQ(fixed.size(), 1u);
    EXPECT_TRUE(fixed[0].ok) << fixed[0].message;
    for (const auto& r : cc->programs().records())
        if (r.file == "nbody_integrate.cl") {
            EXPECT_TRUE(r.failure.empty());
        }
}

TEST(KernelReloader, PollingFallbackSeesEditsAndIgnoresUnchangedSaves) {
    KernelCopy kernels;
    auto cc = freshContext();
    cc->programs().get("grayscale.cl");
    KernelReloader reloader(cc->programs(), kernels.dir.string(), /*forcePolling=*/true);
    EXPECT_NE(reloader.mechanism().find("polling"), std::string::npos);
    // Same bytes saved again: nothing to rebuild.
    usleep(20000);
    kernels.save("grayscale.cl", kernels.read("grayscale.cl"));
    EXPECT_TRUE(reloader.waitForReload(1.5).empty());
    // A real edit (the file's size changes, so coarse timestamps cannot hide it).
    kernels.save("grayscale.cl", kernels.read("grayscale.cl") + "\n// edited\n");
    const auto events = reloader.waitForReload(60);
    ASSERT_EQ(events.size(), 1u);
    EXPECT_TRUE(events[0].installed) << events[0].message;
}

TEST(KernelReloader, FilesNotInUseAreLeftAlone) {
    KernelCopy kernels;
    auto cc = freshContext();
    KernelReloader reloader(cc->programs(), kernels.dir.string());
    kernels.save("transpose.cl", kernels.read("transpose.cl") + "\n// edited\n");
    EXPECT_TRUE(reloader.waitForReload(1.0).empty());  // its first use builds the new source
    EXPECT_EQ(cc->programs().size(), 0u);
}

TEST(KernelReloader, NotADirectoryIsAClearError) {
    auto cc = freshContext();
    EXPECT_THROW(KernelReloader(cc->programs(), "/nonexistent/kernels"), Error);
}
