#include "compute/core/device_info.hpp"

#include <algorithm>
#include <cstdio>
#include <sstream>

#include "compute/core/cl.hpp"

namespace clviz {

const char* deviceKindName(DeviceKind kind) {
    switch (kind) {
        case DeviceKind::Gpu:
            return "GPU";
        case DeviceKind::Cpu:
            return "CPU";
        case DeviceKind::Accelerator:
            return "Accelerator";
        default:
            return "Other";
    }
}

double estimatedPeakGflops(const DeviceInfo& d, bool fp64) {
    if (d.clockMHz == 0 || d.computeUnits == 0) return 0;
    const double lanes = d.kind == DeviceKind::Gpu
                             ? 128.0
                             : 2.0 * std::max(1u, fp64 ? d.nativeDoubleWidth : d.nativeFloatWidth);
    return d.computeUnits * (d.clockMHz * 1e-3) * lanes * 2.0;
}

bool DeviceInfo::hasExtension(const std::string& ext) const {
    return std::find(extensions.begin(), extensions.end(), ext) != extensions.end();
}

namespace {

std::string trimmed(std::string s) {
    // Some drivers pad strings with spaces or a trailing NUL.
    while (!s.empty() && (s.back() == ' ' || s.back() == '\0'))
        s.pop_back();
    std::size_t start = s.find_first_not_of(' ');
    return start == std::string::npos ? std::string() : s.substr(start);
}

std::vector<std::string> splitWords(const std::string& s) {
    std::istringstream in(s);
    std::vector<std::string> words;
    for (std::string w; in >> w;)
        words.push_back(w);
    std::sort(words.begin(), words.end());
    return words;
}

DeviceKind kindOf(cl_device_type type) {
    if (type & CL_DEVICE_TYPE_GPU) return DeviceKind::Gpu;
    if (type & CL_DEVICE_TYPE_CPU) return DeviceKind::Cpu;
    if (type & CL_DEVICE_TYPE_ACCELERATOR) return DeviceKind::Accelerator;
    return DeviceKind::Other;
}

DeviceInfo describe(const cl::Device& d) {
    DeviceInfo info;
    info.name = trimmed(d.getInfo<CL_DEVICE_NAME>());
    info.vendor = trimmed(d.getInfo<CL_DEVICE_VENDOR>());
    info.kind = kindOf(d.getInfo<CL_DEVICE_TYPE>());
    info.version = trimmed(d.getInfo<CL_DEVICE_VERSION>());
    info.driverVersion = trimmed(d.getInfo<CL_DRIVER_VERSION>());
    info.openclCVersion = trimmed(d.getInfo<CL_DEVICE_OPENCL_C_VERSION>());
    info.computeUnits = d.getInfo<CL_DEVICE_MAX_COMPUTE_UNITS>();
    info.clockMHz = d.getInfo<CL_DEVICE_MAX_CLOCK_FREQUENCY>();
    info.globalMemBytes = d.getInfo<CL_DEVICE_GLOBAL_MEM_SIZE>();
    info.localMemBytes = d.getInfo<CL_DEVICE_LOCAL_MEM_SIZE>();
    info.maxAllocBytes = d.getInfo<CL_DEVICE_MAX_MEM_ALLOC_SIZE>();
    info.maxWorkGroupSize = d.getInfo<CL_DEVICE_MAX_WORK_GROUP_SIZE>();
    info.nativeFloatWidth = d.getInfo<CL_DEVICE_NATIVE_VECTOR_WIDTH_FLOAT>();
    info.nativeDoubleWidth = d.getInfo<CL_DEVICE_NATIVE_VECTOR_WIDTH_DOUBLE>();
    info.imageSupport = d.getInfo<CL_DEVICE_IMAGE_SUPPORT>() == CL_TRUE;
    if (info.imageSupport) {
        info.image2dMaxWidth = d.getInfo<CL_DEVICE_IMAGE2D_MAX_WIDTH>();
        info.image2dMaxHeight = d.getInfo<CL_DEVICE_IMAGE2D_MAX_HEIGHT>();
    }
    info.extensions = splitWords(d.getInfo<CL_DEVICE_EXTENSIONS>());
    return info;
}

}  // namespace

std::vector<PlatformInfo> queryPlatforms() {
    std::vector<cl::Platform> platforms;
    // With no ICD registered the loader returns CL_PLATFORM_NOT_FOUND_KHR; treat it as "none".
    cl_uint count = 0;
    if (clGetPlatformIDs(0, nullptr, &count) != CL_SUCCESS || count == 0) return {};
    cl::Platform::get(&platforms);

    std::vector<PlatformInfo> result;
    for (const auto& p : platforms) {
        PlatformInfo info;
        info.name = trimmed(p.getInfo<CL_PLATFORM_NAME>());
        info.vendor = trimmed(p.getInfo<CL_PLATFORM_VENDOR>());
        info.version = trimmed(p.getInfo<CL_PLATFORM_VERSION>());
        cl_uint ndev = 0;
        // CL_DEVICE_NOT_FOUND here just means an empty platform.
        if (clGetDeviceIDs(p(), CL_DEVICE_TYPE_ALL, 0, nullptr, &ndev) == CL_SUCCESS && ndev > 0) {
            std::vector<cl::Device> devices;
            p.getDevices(CL_DEVICE_TYPE_ALL, &devices);
            for (const auto& d : devices)
                info.devices.push_back(describe(d));
        }
        result.push_back(std::move(info));
    }
    return result;
}

std::string formatDeviceTable(const std::vector<PlatformInfo>& platforms) {
    std::ostringstream out;
    if (platforms.empty()) {
        out << "No OpenCL platform found (is an ICD such as pocl-opencl-icd installed?)\n";
        return out.str();
    }
    for (std::size_t p = 0; p < platforms.size(); ++p) {
        const auto& pl = platforms[p];
        out << "Platform " << p << ": " << pl.name << " (" << pl.vendor << ", " << pl.version
            << ")\n";
        if (pl.devices.empty()) out << "  (no devices)\n";
        for (std::size_t d = 0; d < pl.devices.size(); ++d) {
            const auto& dev = pl.devices[d];
            out << "  Device " << p << "." << d << ": " << dev.name << " ["
                << deviceKindName(dev.kind) << "]\n"
                << "    version " << dev.version << ", driver " << dev.driverVersion << "\n"
                << "    " << dev.computeUnits << " compute units @ " << dev.clockMHz
                << " MHz, global " << formatBytes(dev.globalMemBytes) << ", local "
                << formatBytes(dev.localMemBytes) << ", max work-group " << dev.maxWorkGroupSize
                << "\n"
                << "    gl_sharing " << (dev.hasExtension("cl_khr_gl_sharing") ? "yes" : "no")
                << ", gl_event " << (dev.hasExtension("cl_khr_gl_event") ? "yes" : "no")
                << ", external_memory "
                << (dev.hasExtension("cl_khr_external_memory") ? "yes" : "no") << ", fp64 "
                << (dev.hasExtension("cl_khr_fp64") ? "yes" : "no") << "\n";
        }
    }
    return out.str();
}

}  // namespace clviz
