#include "compute/core/program_binary_cache.hpp"

#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>

namespace clviz {

namespace {

constexpr char kMagic[8] = {'C', 'L', 'V', 'Z', 'P', 'B', '0', '1'};

std::string hex64(std::uint64_t v) {
    char buf[17];
    std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(v));
    return buf;
}

template <class T>
void put(std::string& out, T v) {
    out.append(reinterpret_cast<const char*>(&v), sizeof v);
}

template <class T>
bool get(std::ifstream& in, T& v) {
    return static_cast<bool>(in.read(reinterpret_cast<char*>(&v), sizeof v));
}

template <cl_device_info Info>
std::string deviceString(const cl::Device& d) {
    try {
        return d.getInfo<Info>();
    } catch (const cl::Error&) {
        return "?";
    }
}

}  // namespace

std::uint64_t fnv1a64(const void* data, std::size_t size, std::uint64_t seed) {
    const auto* p = static_cast<const unsigned char*>(data);
    std::uint64_t h = seed;
    for (std::size_t i = 0; i < size; ++i) {
        h ^= p[i];
        h *= 1099511628211ull;
    }
    return h;
}

std::optional<std::filesystem::path> ProgramBinaryCache::defaultDirectory() {
    if (const char* v = std::getenv("CLVIZ_PROGRAM_CACHE"); v && *v) {
        if (std::strcmp(v, "off") == 0 || std::strcmp(v, "0") == 0) return std::nullopt;
        return std::filesystem::path(v);
    }
    if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg)
        return std::filesystem::path(xdg) / "clviz" / "programs";
    if (const char* home = std::getenv("HOME"); home && *home)
        return std::filesystem::path(home) / ".cache" / "clviz" / "programs";
    return std::nullopt;
}

ProgramBinaryCache::ProgramBinaryCache(std::filesystem::path directory, const cl::Device& device)
    : directory_(std::move(directory)) {
    cl::Platform platform(device.getInfo<CL_DEVICE_PLATFORM>());
    std::string platformVersion;
    try {
        platformVersion = platform.getInfo<CL_PLATFORM_VERSION>();
    } catch (const cl::Error&) {
        platformVersion = "?";
    }
    deviceIdentity_ = "device=" + deviceString<CL_DEVICE_NAME>(device) +
                      "\nvendor=" + deviceString<CL_DEVICE_VENDOR>(device) +
                      "\ndevice-version=" + deviceString<CL_DEVICE_VERSION>(device) +
                      "\ndriver=" + deviceString<CL_DRIVER_VERSION>(device) +
                      "\nplatform=" + platformVersion + "\n";
}

std::string ProgramBinaryCache::keyText(const std::string& file, const std::string& source,
                                        const std::string& options) const {
    return deviceIdentity_ + "file=" + file + "\noptions=" + options +
           "\nsource=" + std::to_string(source.size()) + ":" +
           hex64(fnv1a64(source.data(), source.size())) + "\n";
}

std::filesystem::path ProgramBinaryCache::pathFor(const std::string& file,
                                                  const std::string& source,
                                                  const std::string& options) const {
    const std::string key = keyText(file, source, options);
    // The file name keeps the kernel file readable for people looking into the directory.
    std::string stem = file;
    if (auto dot = stem.rfind('.'); dot != std::string::npos) stem.resize(dot);
    return directory_ / (stem + "-" + hex64(fnv1a64(key.data(), key.size())) + ".clbin");
}

// Layout: magic[8], u32 key length, key, u64 binary length, u64 FNV-1a of the binary, binary.
std::optional<std::vector<unsigned char>> ProgramBinaryCache::load(const std::string& file,
                                                                   const std::string& source,
                                                                   const std::string& options,
                                                                   std::string* why) const {
    auto miss = [&](const char* reason) -> std::optional<std::vector<unsigned char>> {
        if (why) *why = reason;
        return std::nullopt;
    };
    const auto path = pathFor(file, source, options);
    std::ifstream in(path, std::ios::binary);
    if (!in) return miss("no entry");
    // The size of the file this stream holds open: the path may be renamed over meanwhile.
    in.seekg(0, std::ios::end);
    const auto fileSize = static_cast<std::uint64_t>(in.tellg());
    in.seekg(0);
    char magic[sizeof kMagic];
    if (!in.read(magic, sizeof magic) || std::memcmp(magic, kMagic, sizeof kMagic) != 0)
        return miss("not a clviz program cache file (bad magic)");
    std::uint32_t keyLength = 0;
    if (!get(in, keyLength) || keyLength > (1u << 20)) return miss("truncated or corrupt header");
    std::string key(keyLength, '\0');
    if (!in.read(key.data(), keyLength)) return miss("truncated key");
    if (key != keyText(file, source, options)) return miss("key mismatch (another program)");
    std::uint64_t size = 0, checksum = 0;
    if (!get(in, size) || !get(in, checksum)) return miss("truncated header");
    const std::uint64_t header = sizeof kMagic + 4 + keyLength + 16;
    if (fileSize != header + size) return miss("truncated (size does not match the header)");
    std::vector<unsigned char> binary(size);
    if (size &&
        !in.read(reinterpret_cast<char*>(binary.data()), static_cast<std::streamsize>(size)))
        return miss("truncated binary");
    if (fnv1a64(binary.data(), binary.size()) != checksum) return miss("checksum mismatch");
    if (binary.empty()) return miss("empty binary");
    return binary;
}

std::string ProgramBinaryCache::store(const std::string& file, const std::string& source,
                                      const std::string& options,
                                      const std::vector<unsigned char>& binary) const {
    if (binary.empty()) return "the driver returned no binary";
    std::error_code ec;
    std::filesystem::create_directories(directory_, ec);
    if (ec) return "cannot create " + directory_.string() + ": " + ec.message();

    const std::string key = keyText(file, source, options);
    std::string header(kMagic, sizeof kMagic);
    put(header, static_cast<std::uint32_t>(key.size()));
    header += key;
    put(header, static_cast<std::uint64_t>(binary.size()));
    put(header, fnv1a64(binary.data(), binary.size()));

    // Unique per process and call, in the same directory so rename() is atomic.
    static std::atomic<unsigned> counter{0};
    const auto path = pathFor(file, source, options);
    const auto temp = path.string() + ".tmp." + std::to_string(::getpid()) + "." +
                      std::to_string(counter.fetch_add(1));
    {
        std::ofstream out(temp, std::ios::binary | std::ios::trunc);
        out.write(header.data(), static_cast<std::streamsize>(header.size()));
        out.write(reinterpret_cast<const char*>(binary.data()),
                  static_cast<std::streamsize>(binary.size()));
        out.close();
        if (!out) {
            std::filesystem::remove(temp, ec);
            return "cannot write " + temp;
        }
    }
    std::filesystem::rename(temp, path, ec);
    if (ec) {
        std::filesystem::remove(temp, ec);
        return "cannot rename into " + path.string();
    }
    return "";
}

}  // namespace clviz
