// A step's timeline on two PoCL devices (CTest sets POCL_DEVICES="pthread pthread"): the commands
// of both devices on the host's clock, in order, with their profiled durations; commands of an
// unprofiled queue left out; and the split tree's step shows every device's kernels, slices and
// split build copies.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <set>
#include <thread>

#include "compute/core/profiling.hpp"
#include "compute/nbody/initial_conditions.hpp"
#include "compute/nbody/multi/multi_device_simulation.hpp"
#include "compute/nbody/multi/step_timeline.hpp"
#include "tests/support/two_devices.hpp"

namespace clviz {
namespace {

class StepTimeline : public ::testing::Test {
  protected:
    void SetUp() override {
        ASSERT_TRUE(test::twoDevices().a) << "needs a platform with two devices: run under CTest";
    }
    ComputeContext& a() { return *test::twoDevices().a; }
    ComputeContext& b() { return *test::twoDevices().b; }
};

cl::Event write(cl::CommandQueue& q, cl::Buffer& buffer) {
    std::vector<float> data(1 << 16, 1.0f);
    cl::Event e;
    q.enqueueWriteBuffer(buffer, CL_TRUE, 0, data.size() * 4, data.data(), nullptr, &e);
    return e;
}

// Device a's copy, 40 ms of host time, then device b's: b's starts about 40 ms after a's on the
// one clock, although each device's own clock starts wherever it does.
TEST_F(StepTimeline, PutsEveryDeviceOnTheHostClock) {
    cl::Buffer ba(a().context(), CL_MEM_READ_WRITE, 1 << 18);
    cl::Buffer bb(b().context(), CL_MEM_READ_WRITE, 1 << 18);
    cl::CommandQueue unprofiled(a().context(), a().device());
    const cl::Event first = write(a().queue(), ba);
    const cl::Event hidden = write(unprofiled, ba);
    std::this_thread::sleep_for(std::chrono::milliseconds(40));
    const cl::Event second = write(b().queue(), bb);
    const cl::Event third = write(b().queue(), bb);
    const NbodyStepTimeline t = stepTimeline(
        {{"a", a().queue(), {{"copies", {{"first", first}, {"hidden", hidden}}}}, {}},
         {"b", b().queue(), {{"copies", {{"second", second}}}, {"more", {{"third", third}}}}, {}}});
    ASSERT_EQ(t.devices, (std::vector<std::string>{"a", "b"}));
    ASSERT_EQ(t.spans.size(), 3u);  // "hidden" has no profiling: left out
    EXPECT_EQ(t.spans[0].name, "first");
    EXPECT_EQ(t.spans[0].device, 0u);
    EXPECT_DOUBLE_EQ(t.spans[0].startUs, 0.0);
    EXPECT_EQ(t.spans[1].name, "second");
    EXPECT_EQ(t.spans[1].device, 1u);
    EXPECT_EQ(t.spans[2].name, "third");
    EXPECT_EQ(t.spans[2].lane, "more");
    EXPECT_GE(t.spans[1].startUs, 30e3);  // the sleep, less the clock tie's slack
    EXPECT_LT(t.spans[1].startUs, 10e6);
    EXPECT_GE(t.spans[2].startUs, t.spans[1].startUs + t.spans[1].durationUs);
    EXPECT_NEAR(t.spans[0].durationUs, eventMilliseconds(first) * 1e3, 1e-3);
}

// The split tree: each device's kernels (its build and walk), its slices' copies, the local
// essential trees' copies (out and in) and the host's exchange phases, every span within the step;
// the exchange's kernels counted in the step's kernels.
TEST_F(StepTimeline, ShowsTheSplitTreesCopiesOnEveryDevice) {
    NbodyMultiDevice sim({&a(), &b()});
    NbodyKernelConfig config;
    config.variant = NbodyVariant::Tree;
    sim.setKernelConfig(config);
    sim.setTreeWalkPieces(2);
    sim.setTreeSplitBuild(true);
    sim.load(makePreset(NbodyPreset::Plummer, 3001, 5));
    sim.step(1);
    const NbodyStepTimeline t = sim.lastTimeline();
    ASSERT_EQ(t.devices.size(), 2u);
    for (std::size_t d = 0; d < 2; ++d) {
        SCOPED_TRACE("device " + std::to_string(d));
        std::set<std::string> seen;
        for (const NbodyTimelineSpan& s : t.spans)
            if (s.device == d) {
                seen.insert(s.lane + ": " + s.name);
                EXPECT_GE(s.startUs, 0.0);
                EXPECT_GE(s.durationUs, 0.0);
                EXPECT_LT(s.startUs, 60e6);
            }
        for (const char* want :
             {"kernels: tree-walk", "kernels: tree-sort", "split build copies: essential out",
              "split build copies: graft in", "split build copies: index in",
              "split build copies: index out", "slice copies: slice copy"})
            EXPECT_TRUE(seen.count(want)) << want;
    }
    // Each span says its command: the tree's kernels by function name (the split build's and the
    // pieces' walk among them), the copies by type.
    std::set<std::string> commands;
    for (const NbodyTimelineSpan& s : t.spans) {
        if (s.lane == "host") continue;
        EXPECT_FALSE(s.command.empty()) << s.lane << ": " << s.name;
        commands.insert(s.name + ": " + s.command);
    }
    for (const char* want :
         {"tree-build: build_domain_tree", "tree-sort: window_pass", "essential out: read buffer",
          "graft in: write buffer", "slice copy: read buffer"})
        EXPECT_TRUE(commands.count(want)) << want;
    // The group walk on GPUs, one work-item a body on CPUs (PoCL).
    EXPECT_TRUE(commands.count("tree-walk: walk") || commands.count("tree-walk: walk_body"));
    // The split build's copies carry their bytes (the sorted order's slices: 4 bytes a body of
    // the domain sent or received); kernels none.
    const std::vector<BodySlice>& slices = sim.slices();
    for (const NbodyTimelineSpan& s : t.spans) {
        if (s.lane == "kernels") {
            EXPECT_EQ(s.bytes, 0u) << s.name;
        }
        if (s.lane == "split build copies") {
            EXPECT_GT(s.bytes, 0u) << s.name;
        }
        if (s.name == "index out") {
            EXPECT_EQ(s.bytes, slices[s.device].count * 4);
        }
        if (s.name == "index in") {
            EXPECT_EQ(s.bytes, slices[1 - s.device].count * 4);
        }
    }
    // The step's wall clock on the first device's host lane, from the timeline's start; every
    // span within it, but for the slack of tying a device's clock to the host's.
    const auto wall = std::find_if(t.spans.begin(), t.spans.end(), [](const NbodyTimelineSpan& s) {
        return s.lane == "host" && s.name == "step (wall clock)";
    });
    ASSERT_NE(wall, t.spans.end());
    EXPECT_EQ(wall->device, 0u);
    EXPECT_LE(wall->startUs, 1e3);
    for (const NbodyTimelineSpan& s : t.spans)
        EXPECT_LE(s.startUs + s.durationUs, wall->durationUs + 1e3) << s.lane << ": " << s.name;
    // The host's wait for each device's end, on that device's host lane (within the wall clock,
    // above), ends after the device's last command (the same slack).
    for (std::size_t d = 0; d < 2; ++d) {
        double waitEnd = -1, lastCommand = 0;
        for (const NbodyTimelineSpan& s : t.spans) {
            if (s.device != d) continue;
            if (s.lane == "host" && s.name == "wait for the end")
                waitEnd = s.startUs + s.durationUs;
            else if (s.lane != "host")
                lastCommand = std::max(lastCommand, s.startUs + s.durationUs);
        }
        EXPECT_GE(waitEnd, 0.0) << "device " << d << ": no wait for the end";
        EXPECT_GE(waitEnd, lastCommand - 1e3) << "device " << d;
    }
    // The grafts' kernels (after the essential records came in) are in the step's kernels.
    for (std::size_t d = 0; d < 2; ++d) {
        double graftIn = 1e300, lastBuild = -1;
        for (const NbodyTimelineSpan& s : t.spans) {
            if (s.device != d) continue;
            if (s.name == "graft in") graftIn = std::min(graftIn, s.startUs);
            if (s.lane == "kernels" && s.name == "tree-build") lastBuild = s.startUs;
        }
        EXPECT_GT(lastBuild, graftIn) << "device " << d;
    }
    // Whole builds: no split build copies.
    sim.setTreeSplitBuild(false);
    sim.step(1);
    for (const NbodyTimelineSpan& s : sim.lastTimeline().spans)
        EXPECT_NE(s.lane, "split build copies");
}

}  // namespace
}  // namespace clviz
