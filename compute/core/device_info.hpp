#pragma once
// Plain descriptions of OpenCL platforms and devices, queried once. Device selection works on
// these structs only, so it can be tested with made-up machines.
#include <cstdint>
#include <string>

#include <vector>
#include "common/format_bytes.hpp"  // formatBytes, which every user of device sizes needs

namespace clviz {

enum class DeviceKind { Gpu, Cpu, Accelerator, Other };
const char* deviceKindName(DeviceKind kind);

struct DeviceInfo {
    std::string name;
    std::string vendor;
    DeviceKind kind = DeviceKind::Other;
    std::string version;         // CL_DEVICE_VERSION
    std::string driverVersion;   // CL_DRIVER_VERSION
    std::string openclCVersion;  // CL_DEVICE_OPENCL_C_VERSION
    unsigned computeUnits = 0;
    unsigned clockMHz = 0;
    std::uint64_t globalMemBytes = 0;
    std::uint64_t localMemBytes = 0;
    std::uint64_t maxAllocBytes = 0;
    std::size_t maxWorkGroupSize = 0;
    // CL_DEVICE_NATIVE_VECTOR_WIDTH_FLOAT / _DOUBLE: floats (doubles) per SIMD register; 1 on
    // GPUs, whose lanes are work-items, 8 or 16 (4 or 8) on CPUs with AVX2 or AVX-512.
    unsigned nativeFloatWidth = 1;
    unsigned nativeDoubleWidth = 1;
    bool imageSupport = false;
    std::size_t image2dMaxWidth = 0;
    std::size_t image2dMaxHeight = 0;
    std::vector<std::string> extensions;

    bool hasExtension(const std::string& ext) const;
};

// An upper bound on the device's arithmetic rate in GFLOP/s (fused multiply-add as 2): compute
// units x clock x lanes x 2, with 128 lanes a GPU compute unit (an NVIDIA SM, an AMD CU issuing
// two) and two FMA pipes of the native vector width a CPU core. Above it, a figure is a counting
// error (issue 27: the tree showed 60x an H200's peak). 0 where the clock is unknown.
double estimatedPeakGflops(const DeviceInfo& device, bool fp64 = false);

struct PlatformInfo {
    std::string name;
    std::string vendor;
    std::string version;
    std::vector<DeviceInfo> devices;  // may be empty (Mesa's Clover often is)
};

// Every platform the ICD loader reports, each with all its devices. No platform at all gives an
// empty vector, not an exception.
std::vector<PlatformInfo> queryPlatforms();

// The table printed by --list-devices.
std::string formatDeviceTable(const std::vector<PlatformInfo>& platforms);

}  // namespace clviz
