#include "compute/core/device_select.hpp"

#include <algorithm>
#include <cctype>
#include <climits>
#include <optional>
#include <sstream>

#include "common/error.hpp"
#include "common/parse.hpp"
#include "common/quoted_path.hpp"
#include "common/text.hpp"

namespace clviz {

namespace {

std::optional<int> parseIndex(const std::string& s) {
    const auto value = parseInteger(s);
    if (!value) return std::nullopt;
    return static_cast<int>(std::clamp<long long>(*value, INT_MIN, INT_MAX));  // out of range
}

bool matches(const DeviceInfo& d, DeviceTypeFilter f) {
    switch (f) {
        case DeviceTypeFilter::Gpu:
            return d.kind == DeviceKind::Gpu;
        case DeviceTypeFilter::Cpu:
            return d.kind == DeviceKind::Cpu;
        default:
            return true;
    }
}

const char* filterName(DeviceTypeFilter f) {
    switch (f) {
        case DeviceTypeFilter::Gpu:
            return "GPU";
        case DeviceTypeFilter::Cpu:
            return "CPU";
        default:
            return "any";
    }
}

std::string available(const std::vector<PlatformInfo>& platforms) {
    std::ostringstream out;
    out << "Available:";
    for (std::size_t p = 0; p < platforms.size(); ++p) {
        out << "\n  platform " << p << ": " << platforms[p].name;
        if (platforms[p].devices.empty()) out << " (no devices)";
        for (std::size_t d = 0; d < platforms[p].devices.size(); ++d)
            out << "\n    device " << p << "." << d << ": " << platforms[p].devices[d].name << " ["
                << deviceKindName(platforms[p].devices[d].kind) << "]";
    }
    out << "\n(run clviz --list-devices for details)";
    return out.str();
}

int resolvePlatform(const std::vector<PlatformInfo>& platforms, const std::string& spec) {
    if (auto idx = parseIndex(spec)) {
        if (*idx < 0 || *idx >= static_cast<int>(platforms.size()))
            throw Error("--platform " + spec + " is out of range: there " +
                        (platforms.size() == 1
                             ? "is 1 platform"
                             : "are " + std::to_string(platforms.size()) + " platforms") +
                        ". " + available(platforms));
        return *idx;
    }
    for (std::size_t p = 0; p < platforms.size(); ++p)
        if (toLower(platforms[p].name + " " + platforms[p].vendor).find(toLower(spec)) !=
            std::string::npos)
            return static_cast<int>(p);
    throw Error("no OpenCL platform matches " + quotedPath(spec) + ". " + available(platforms));
}

}  // namespace

DeviceTypeFilter parseDeviceTypeFilter(const std::string& text) {
    const std::string t = toLower(text);
    if (t == "all") return DeviceTypeFilter::All;
    if (t == "gpu") return DeviceTypeFilter::Gpu;
    if (t == "cpu") return DeviceTypeFilter::Cpu;
    throw Error("--device-type must be cpu, gpu or all (got " + quotedPath(text) + ")");
}

namespace {

// " (--device-type gpu)", or "" for all types.
std::string typeSuffix(DeviceTypeFilter type) {
    return type == DeviceTypeFilter::All
               ? std::string()
               : std::string(" (--device-type ") + (type == DeviceTypeFilter::Gpu ? "gpu" : "cpu") +
                     ")";
}

void checkSomeDeviceExists(const std::vector<PlatformInfo>& platforms) {
    if (platforms.empty())
        throw Error(
            "no OpenCL platform found. Install an OpenCL driver (for the CPU: apt-get install "
            "pocl-opencl-icd) and check /etc/OpenCL/vendors/.");
    const bool anyDevice = std::any_of(platforms.begin(), platforms.end(),
                                       [](const PlatformInfo& p) { return !p.devices.empty(); });
    if (!anyDevice)
        throw Error("OpenCL platforms were found but none has a device. " + available(platforms));
}

// --platform as given, or for -d alone the first platform with a device of the requested type.
int requestedPlatform(const std::vector<PlatformInfo>& platforms, const DeviceRequest& req) {
    if (req.platform) return resolvePlatform(platforms, *req.platform);
    for (std::size_t i = 0; i < platforms.size(); ++i)
        for (const auto& d : platforms[i].devices)
            if (matches(d, req.type)) return static_cast<int>(i);
    throw Error(std::string("no ") + filterName(req.type) + " device on any platform. " +
                available(platforms));
}

// --device on platform p: an index or a case-insensitive part of the name.
int requestedDevice(const std::vector<PlatformInfo>& platforms, int p, const std::string& spec) {
    const auto& devices = platforms[p].devices;
    if (auto idx = parseIndex(spec)) {
        if (*idx < 0 || *idx >= static_cast<int>(devices.size()))
            throw Error("--device " + spec + " is out of range: platform " + std::to_string(p) +
                        " has " + std::to_string(devices.size()) + " device(s). " +
                        available(platforms));
        return *idx;
    }
    for (std::size_t i = 0; i < devices.size(); ++i)
        if (toLower(devices[i].name).find(toLower(spec)) != std::string::npos)
            return static_cast<int>(i);
    throw Error("no device on platform " + std::to_string(p) + " matches " + quotedPath(spec) +
                ". " + available(platforms));
}

// -p and/or -d given: exactly what was asked, or an error saying why not.
DeviceChoice chooseRequested(const std::vector<PlatformInfo>& platforms, const DeviceRequest& req) {
    const char* typeName = filterName(req.type);
    const int p = requestedPlatform(platforms, req);
    const auto& devices = platforms[p].devices;
    if (devices.empty())
        throw Error("platform " + std::to_string(p) + " (" + platforms[p].name +
                    ") has no devices. " + available(platforms));
    if (req.device) {
        const int d = requestedDevice(platforms, p, *req.device);
        if (!matches(devices[d], req.type))
            throw Error("device " + std::to_string(p) + "." + std::to_string(d) + " (" +
                        devices[d].name + ") is a " + deviceKindName(devices[d].kind) + ", not a " +
                        typeName + " device" + typeSuffix(req.type) + ".");
        return {p, d, "requested on the command line"};
    }
    for (std::size_t i = 0; i < devices.size(); ++i)
        if (matches(devices[i], req.type))
            return {p, static_cast<int>(i),
                    "first " + std::string(req.type == DeviceTypeFilter::All ? "" : typeName) +
                        (req.type == DeviceTypeFilter::All ? "" : " ") +
                        "device on the requested platform"};
    throw Error("platform " + std::to_string(p) + " (" + platforms[p].name + ") has no " +
                typeName + " device" + typeSuffix(req.type) + ". " + available(platforms));
}

std::optional<DeviceChoice> firstOfKind(const std::vector<PlatformInfo>& platforms,
                                        DeviceKind kind) {
    for (std::size_t p = 0; p < platforms.size(); ++p)
        for (std::size_t d = 0; d < platforms[p].devices.size(); ++d)
            if (platforms[p].devices[d].kind == kind)
                return DeviceChoice{static_cast<int>(p), static_cast<int>(d), ""};
    return std::nullopt;
}

// Nothing named: the device driving GL, else the first GPU, else the first CPU, else anything.
DeviceChoice chooseAutomatically(const std::vector<PlatformInfo>& platforms,
                                 const DeviceRequest& req) {
    if (req.glDevice) {
        auto [p, d] = *req.glDevice;
        if (p >= 0 && p < static_cast<int>(platforms.size()) && d >= 0 &&
            d < static_cast<int>(platforms[p].devices.size()) &&
            matches(platforms[p].devices[d], req.type))
            return {p, d, "it drives the OpenGL context (clGetGLContextInfoKHR)"};
    }
    if (req.type != DeviceTypeFilter::Cpu) {
        if (auto c = firstOfKind(platforms, DeviceKind::Gpu)) {
            c->reason = "first GPU device";
            return *c;
        }
        if (req.type == DeviceTypeFilter::Gpu)
            throw Error("no GPU OpenCL device found (--device-type gpu). " + available(platforms));
    }
    if (auto c = firstOfKind(platforms, DeviceKind::Cpu)) {
        c->reason = req.type == DeviceTypeFilter::Cpu ? "first CPU device"
                                                      : "no GPU found; first CPU device";
        return *c;
    }
    if (req.type == DeviceTypeFilter::Cpu)
        throw Error("no CPU OpenCL device found (--device-type cpu). " + available(platforms));
    for (std::size_t p = 0; p < platforms.size(); ++p)
        if (!platforms[p].devices.empty())
            return {static_cast<int>(p), 0, "no GPU or CPU found; first device"};
    throw Error("no usable OpenCL device. " + available(platforms));
}

}  // namespace

DeviceChoice chooseDevice(const std::vector<PlatformInfo>& platforms, const DeviceRequest& req) {
    checkSomeDeviceExists(platforms);
    if (req.platform || req.device) return chooseRequested(platforms, req);
    return chooseAutomatically(platforms, req);
}

namespace {

// One item of a --devices list: "P.D" or "D" (on `defaultPlatform`).
DeviceChoice listedDevice(const std::vector<PlatformInfo>& platforms, const std::string& item,
                          int defaultPlatform) {
    const auto dot = item.find('.');
    const auto p = dot == std::string::npos ? std::optional<int>(defaultPlatform)
                                            : parseIndex(item.substr(0, dot));
    const auto d = parseIndex(dot == std::string::npos ? item : item.substr(dot + 1));
    if (!p || !d)
        throw Error("--devices: '" + item +
                    "' is not a device number (D or P.D as --list-devices shows). " +
                    available(platforms));
    if (*p < 0 || *p >= static_cast<int>(platforms.size()) || *d < 0 ||
        *d >= static_cast<int>(platforms[*p].devices.size()))
        throw Error("--devices: there is no device " + std::to_string(*p) + "." +
                    std::to_string(*d) + ". " + available(platforms));
    return {*p, *d, "listed in --devices"};
}

}  // namespace

std::vector<DeviceChoice> chooseDevices(const std::vector<PlatformInfo>& platforms,
                                        const std::string& spec,
                                        const std::optional<std::string>& platform) {
    checkSomeDeviceExists(platforms);
    const std::string s = toLower(trim(spec));
    std::vector<DeviceChoice> out;
    if (s == "all" || s == "gpu" || s == "cpu") {
        const DeviceTypeFilter type = parseDeviceTypeFilter(s);
        const int only = platform ? resolvePlatform(platforms, *platform) : -1;
        for (std::size_t p = 0; p < platforms.size(); ++p)
            for (std::size_t d = 0; d < platforms[p].devices.size(); ++d)
                if ((only < 0 || only == static_cast<int>(p)) &&
                    matches(platforms[p].devices[d], type))
                    out.push_back({static_cast<int>(p), static_cast<int>(d), "--devices " + s});
        if (out.empty())
            throw Error("--devices " + s + ": no " + filterName(type) + " device" +
                        (only >= 0 ? " on platform " + std::to_string(only) : std::string()) +
                        ". " + available(platforms));
        return out;
    }
    int defaultPlatform = 0;
    if (platform) {
        defaultPlatform = resolvePlatform(platforms, *platform);
    } else {
        while (platforms[defaultPlatform].devices.empty())
            ++defaultPlatform;  // checkSomeDeviceExists: some platform has one
    }
    for (const std::string& item : splitList(s)) {
        const DeviceChoice c = listedDevice(platforms, item, defaultPlatform);
        for (const DeviceChoice& o : out)
            if (o.platform == c.platform && o.device == c.device)
                throw Error("--devices names device " + std::to_string(c.platform) + "." +
                            std::to_string(c.device) + " twice");
        out.push_back(c);
    }
    if (out.empty())
        throw Error("--devices needs all, gpu, cpu or a list such as 0,1 or 0.0,1.0. " +
                    available(platforms));
    return out;
}

DeviceChoice deviceForRank(const std::vector<PlatformInfo>& platforms, const DeviceRequest& request,
                           int localRank) {
    if (request.device) {
        DeviceChoice c = chooseDevice(platforms, request);
        c.reason += "; every rank of the host uses it";
        return c;
    }
    const char* kind = request.type == DeviceTypeFilter::Gpu   ? "gpu"
                       : request.type == DeviceTypeFilter::Cpu ? "cpu"
                                                               : "all";
    std::vector<DeviceChoice> candidates = chooseDevices(platforms, kind, request.platform);
    if (request.type == DeviceTypeFilter::All) {
        // Without a type, GPUs first: a host's CPU device is rarely what a rank should drive.
        std::stable_partition(candidates.begin(), candidates.end(), [&](const DeviceChoice& c) {
            return platforms[c.platform].devices[c.device].kind == DeviceKind::Gpu;
        });
        const auto gpus = std::count_if(candidates.begin(), candidates.end(), [&](auto& c) {
            return platforms[c.platform].devices[c.device].kind == DeviceKind::Gpu;
        });
        if (gpus > 0) candidates.resize(static_cast<std::size_t>(gpus));
    }
    const std::size_t pick = static_cast<std::size_t>(localRank) % candidates.size();
    DeviceChoice c = candidates[pick];
    c.reason = "local rank " + std::to_string(localRank) + " takes device " + std::to_string(pick) +
               " of the " + std::to_string(candidates.size()) + " this host offers";
    return c;
}

}  // namespace clviz
