// The viewer's start (app/viewer_start.hpp): the device chosen once before the window, replaced
// by the one driving GL only where the command line left the choice open and the type fits.
#include "app/viewer_start.hpp"

#include <gtest/gtest.h>

using namespace clviz;

namespace {

DeviceInfo device(const char* name, DeviceKind kind) {
    DeviceInfo d;
    d.name = name;
    d.kind = kind;
    return d;
}

// Platform 0: a CPU; platform 1: two GPUs, the second one drives the display.
std::vector<PlatformInfo> machine() {
    PlatformInfo cpu{"PoCL", "pocl", "OpenCL 3.0", {device("cpu", DeviceKind::Cpu)}};
    PlatformInfo gpus{
        "Mesa",
        "mesa",
        "OpenCL 3.0",
        {device("compute gpu", DeviceKind::Gpu), device("display gpu", DeviceKind::Gpu)}};
    return {cpu, gpus};
}

}  // namespace

TEST(ViewerStart, TheDeviceDrivingGlWinsWhenTheChoiceWasOpen) {
    const auto platforms = machine();
    const DeviceChoice chosen = chooseDevice(platforms, {});
    ASSERT_EQ(chosen.device, 0);  // the first GPU, before the window existed
    const DeviceChoice c = preferGlDevice(platforms, {}, chosen, std::make_pair(1, 1));
    EXPECT_EQ(c.platform, 1);
    EXPECT_EQ(c.device, 1);
    EXPECT_NE(c.reason.find("OpenGL"), std::string::npos);
}

TEST(ViewerStart, ARequestOrATypeTheGlDeviceLacksKeepsTheChoice) {
    const auto platforms = machine();
    const auto gl = std::make_optional(std::make_pair(1, 1));
    DeviceRequest named;
    named.device = "0";
    const DeviceChoice first = chooseDevice(platforms, named);
    EXPECT_EQ(preferGlDevice(platforms, named, first, gl).device, first.device);
    DeviceRequest cpu;
    cpu.type = DeviceTypeFilter::Cpu;
    const DeviceChoice cpuChoice = chooseDevice(platforms, cpu);
    EXPECT_EQ(preferGlDevice(platforms, cpu, cpuChoice, gl).platform, 0);
    // No GL device known, or one out of range: nothing changes.
    const DeviceChoice open = chooseDevice(platforms, {});
    EXPECT_EQ(preferGlDevice(platforms, {}, open, std::nullopt).reason, open.reason);
    EXPECT_EQ(preferGlDevice(platforms, {}, open, std::make_pair(3, 0)).reason, open.reason);
    EXPECT_EQ(preferGlDevice(platforms, {}, open, std::make_pair(1, 5)).reason, open.reason);
}
