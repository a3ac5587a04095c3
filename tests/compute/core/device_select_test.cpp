// Device choice on made-up machines: the cases a real CI box cannot produce.
#include <gtest/gtest.h>

#include "common/error.hpp"
#include "compute/core/device_select.hpp"

using namespace clviz;

namespace {

DeviceInfo dev(const std::string& name, DeviceKind kind) {
    DeviceInfo d;
    d.name = name;
    d.kind = kind;
    return d;
}

PlatformInfo platform(const std::string& name, std::vector<DeviceInfo> devices) {
    PlatformInfo p;
    p.name = name;
    p.vendor = name + " vendor";
    p.devices = std::move(devices);
    return p;
}

// Clover (no devices), PoCL (CPU), NVIDIA (GPU) in that order.
std::vector<PlatformInfo> mixedMachine() {
    return {platform("Clover", {}),
            platform("Portable Computing Language", {dev("pthread-cpu", DeviceKind::Cpu)}),
            platform("NVIDIA CUDA",
                     {dev("NVIDIA H200", DeviceKind::Gpu), dev("NVIDIA H100", DeviceKind::Gpu)})};
}

std::string errorOf(const std::vector<PlatformInfo>& p, const DeviceRequest& r) {
    try {
        chooseDevice(p, r);
    } catch (const Error& e) {
        return e.what();
    }
    return "";
}

}  // namespace

TEST(DeviceSelect, NoPlatformIsAClearError) {
    auto msg = errorOf({}, {});
    EXPECT_NE(msg.find("no OpenCL platform"), std::string::npos) << msg;
}

TEST(DeviceSelect, PlatformsWithZeroDevicesAreAClearError) {
    auto msg = errorOf({platform("Clover", {})}, {});
    EXPECT_NE(msg.find("none has a device"), std::string::npos) << msg;
    EXPECT_NE(msg.find("Clover (no devices)"), std::string::npos) << msg;
}

TEST(DeviceSelect, DefaultPrefersFirstGpuAndSkipsEmptyPlatform) {
    auto c = chooseDevice(mixedMachine(), {});
    EXPECT_EQ(c.platform, 2);
    EXPECT_EQ(c.device, 0);
    EXPECT_EQ(c.reason, "first GPU device");
}

TEST(DeviceSelect, DefaultFallsBackToCpu) {
    auto c =
        chooseDevice({platform("Clover", {}), platform("PoCL", {dev("cpu", DeviceKind::Cpu)})}, {});
    EXPECT_EQ(c.platform, 1);
    EXPECT_EQ(c.device, 0);
    EXPECT_NE(c.reason.find("no GPU"), std::string::npos);
}

TEST(DeviceSelect, GlContextDeviceWins) {
    DeviceRequest r;
    r.glDevice = std::make_pair(2, 1);
    auto c = chooseDevice(mixedMachine(), r);
    EXPECT_EQ(c.platform, 2);
    EXPECT_EQ(c.device, 1);
    EXPECT_NE(c.reason.find("OpenGL"), std::string::npos);
}

TEST(DeviceSelect, GlDeviceIgnoredWhenTypeFilterExcludesIt) {
    DeviceRequest r;
    r.glDevice = std::make_pair(2, 1);
    r.type = DeviceTypeFilter::Cpu;
    auto c = chooseDevice(mixedMachine(), r);
    EXPECT_EQ(c.platform, 1);
}

TEST(DeviceSelect, DeviceTypeCpu) {
    DeviceRequest r;
    r.type = DeviceTypeFilter::Cpu;
    auto c = chooseDevice(mixedMachine(), r);
    EXPECT_EQ(c.platform, 1);
    EXPECT_EQ(c.device, 0);
}

TEST(DeviceSelect, DeviceTypeGpuWithoutGpuFails) {
    DeviceRequest r;
    r.type = DeviceTypeFilter::Gpu;
    auto msg = errorOf({platform("PoCL", {dev("cpu", DeviceKind::Cpu)})}, r);
    EXPECT_NE(msg.find("no GPU"), std::string::npos) << msg;
}

TEST(DeviceSelect, ExplicitIndices) {
    DeviceRequest r;
    r.platform = "2";
    r.device = "1";
    auto c = chooseDevice(mixedMachine(), r);
    EXPECT_EQ(c.platform, 2);
    EXPECT_EQ(c.device, 1);
    EXPECT_EQ(c.reason, "requested on the command line");
}

TEST(DeviceSelect, NamesMatchCaseInsensitively) {
    DeviceRequest r;
    r.platform = "nvidia";
    r.device = "h100";
    auto c = chooseDevice(mixedMachine(), r);
    EXPECT_EQ(c.platform, 2);
    EXPECT_EQ(c.device, 1);
}

TEST(DeviceSelect, PlatformOutOfRange) {
    DeviceRequest r;
    r.platform = "7";
    auto msg = errorOf(mixedMachine(), r);
    EXPECT_NE(msg.find("out of range"), std::string::npos) << msg;
    EXPECT_NE(msg.find("are 3 platforms"), std::string::npos) << msg;
}

TEST(DeviceSelect, NegativePlatformIsOutOfRange) {
    DeviceRequest r;
    r.platform = "-1";
    EXPECT_NE(errorOf(mixedMachine(), r).find("out of range"), std::string::npos);
}

TEST(DeviceSelect, DeviceOutOfRange) {
    DeviceRequest r;
    r.platform = "1";
    r.device = "3";
    auto msg = errorOf(mixedMachine(), r);
    EXPECT_NE(msg.find("has 1 device(s)"), std::string::npos) << msg;
}

TEST(DeviceSelect, EmptyPlatformRequested) {
    DeviceRequest r;
    r.platform = "0";
    auto msg = errorOf(mixedMachine(), r);
    EXPECT_NE(msg.find("has no devices"), std::string::npos) << msg;
}

TEST(DeviceSelect, UnknownNames) {
    DeviceRequest r;
    r.platform = "amd";
    EXPECT_NE(errorOf(mixedMachine(), r).find("no OpenCL platform matches 'amd'"),
              std::string::npos);
    r.platform = "nvidia";
    r.device = "a100";
    EXPECT_NE(errorOf(mixedMachine(), r).find("matches 'a100'"), std::string::npos);
}

TEST(DeviceSelect, DeviceAloneUsesFirstPlatformWithMatchingDevice) {
    DeviceRequest r;
    r.device = "0";
    r.type = DeviceTypeFilter::Gpu;
    auto c = chooseDevice(mixedMachine(), r);
    EXPECT_EQ(c.platform, 2);
}

TEST(DeviceSelect, ExplicitDeviceOfWrongType) {
    DeviceRequest r;
    r.platform = "1";
    r.device = "0";
    r.type = DeviceTypeFilter::Gpu;
    auto msg = errorOf(mixedMachine(), r);
    EXPECT_NE(msg.find("not a GPU device"), std::string::npos) << msg;
}

TEST(DeviceSelect, ParseDeviceType) {
    EXPECT_EQ(parseDeviceTypeFilter("GPU"), DeviceTypeFilter::Gpu);
    EXPECT_EQ(parseDeviceTypeFilter("cpu"), DeviceTypeFilter::Cpu);
    EXPECT_EQ(parseDeviceTypeFilter("all"), DeviceTypeFilter::All);
    EXPECT_THROW(parseDeviceTypeFilter("fpga"), Error);
}

namespace {

std::vector<std::pair<int, int>> chosen(const std::string& spec,
                                        const std::optional<std::string>& platform = {}) {
    std::vector<std::pair<int, int>> out;
    for (const DeviceChoice& c : chooseDevices(mixedMachine(), spec, platform))
        out.emplace_back(c.platform, c.device);
    return out;
}

std::string devicesError(const std::string& spec) {
    try {
        chooseDevices(mixedMachine(), spec);
    } catch (const Error& e) {
        return e.what();
    }
    return "";
}

using Pairs = std::vector<std::pair<int, int>>;

}  // namespace

TEST(DeviceSets, KindsAndAllSkipTheEmptyPlatform) {
    EXPECT_EQ(chosen("all"), (Pairs{{1, 0}, {2, 0}, {2, 1}}));
    EXPECT_EQ(chosen("gpu"), (Pairs{{2, 0}, {2, 1}}));
    EXPECT_EQ(chosen("CPU"), (Pairs{{1, 0}}));
    EXPECT_EQ(chosen("all", std::string("nvidia")), (Pairs{{2, 0}, {2, 1}}));
}

TEST(DeviceSets, ListsKeepTheirOrderAndMayMixPlatforms) {
    EXPECT_EQ(chosen("2.1, 1.0"), (Pairs{{2, 1}, {1, 0}}));
    // Plain indices: the first platform with a device (PoCL here), or --platform's.
    EXPECT_EQ(chosen("0"), (Pairs{{1, 0}}));
    EXPECT_EQ(chosen("1,0", std::string("2")), (Pairs{{2, 1}, {2, 0}}));
}

TEST(DeviceSets, MistakesNameWhatExists) {
    EXPECT_NE(devicesError("0,0").find("twice"), std::string::npos);
    EXPECT_NE(devicesError("2.5").find("no device 2.5"), std::string::npos);
    EXPECT_NE(devicesError("2.5").find("NVIDIA H200"), std::string::npos);
    EXPECT_NE(devicesError("fast").find("not a device number"), std::string::npos);
    EXPECT_NE(devicesError("0,").find("not a device number"), std::string::npos);
    EXPECT_NE(devicesError("").find("needs all, gpu, cpu"), std::string::npos);
    EXPECT_THROW(chooseDevices({platform("Clover", {})}, "all"), Error);
    EXPECT_THROW(chooseDevices({platform("PoCL", {dev("cpu", DeviceKind::Cpu)})}, "gpu"), Error);
}

TEST(DeviceForRank, RanksOfAHostTakeItsGpusRoundRobin) {
    const auto m = mixedMachine();
    DeviceRequest any;
    EXPECT_EQ(deviceForRank(m, any, 0).device, 0);
    EXPECT_EQ(deviceForRank(m, any, 1).device, 1);
    EXPECT_EQ(deviceForRank(m, any, 2).device, 0);  // more ranks than GPUs: they share
    EXPECT_EQ(deviceForRank(m, any, 1).platform, 2);
    DeviceRequest cpu;
    cpu.type = DeviceTypeFilter::Cpu;
    EXPECT_EQ(deviceForRank(m, cpu, 3).platform, 1);
    DeviceRequest named;
    named.platform = "nvidia";
    named.device = "h100";
    EXPECT_EQ(deviceForRank(m, named, 0).device, 1);
    EXPECT_EQ(deviceForRank(m, named, 5).device, 1);
    // A CPU-only machine: every rank on the CPU device.
    const std::vector<PlatformInfo> cpuOnly{platform("PoCL", {dev("cpu", DeviceKind::Cpu)})};
    EXPECT_EQ(deviceForRank(cpuOnly, any, 1).platform, 0);
}
