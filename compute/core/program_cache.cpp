#include "compute/core/program_cache.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>

#include "common/error.hpp"
#include "compute/core/cl_boundary.hpp"
#include "compute/core/kernel_source.hpp"

namespace clviz {

namespace {

std::atomic<bool> gVerbose{false};

std::string buildLog(const cl::Program& program, const cl::Device& device) {
    try {
        return program.getBuildInfo<CL_PROGRAM_BUILD_LOG>(device);
    } catch (const cl::Error&) {
        return "(no build log available)";
    }
}

std::string optionsText(const std::string& options) {
    return options.empty() ? "(none)" : options;
}

// Loads and builds `binary`; returns a null program (and why) when the driver refuses it.
cl::Program programFromBinary(const cl::Context& context, const cl::Device& device,
                              const std::vector<unsigned char>& binary, const std::string& options,
                              std::string& why) {
    try {
        std::vector<cl_int> status;
        cl::Program program(context, {device}, cl::Program::Binaries{binary}, &status);
        if (!status.empty() && status[0] != CL_SUCCESS) {
            why = std::string("binary refused: ") + clErrorName(status[0]);
            return {};
        }
        program.build(std::vector<cl::Device>{device}, options.c_str());
        return program;
    } catch (const cl::Error& e) {
        why = std::string("binary refused: ") + clErrorName(e.err());
        return {};
    }
}

}  // namespace

ProgramBuild buildProgram(const cl::Context& context, const cl::Device& device,
                          const std::string& file, const std::string& source,
                          const std::string& options, const ProgramBinaryCache* disk,
                          const std::vector<std::string>& includes) {
    const auto start = std::chrono::steady_clock::now();
    ProgramBuild b;
    b.sourceHash = fnv1a64(source.data(), source.size());
    b.includes = includes;
    auto finish = [&] {
        b.ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
                   .count();
        return std::move(b);
    };
    if (disk) {
        if (auto binary = disk->load(file, source, options, &b.cacheNote)) {
            b.program = programFromBinary(context, device, *binary, options, b.cacheNote);
            if (b.program()) {
                b.origin = ProgramOrigin::BinaryCache;
                b.cacheNote.clear();
                b.log = withOriginalPositions(buildLog(b.program, device), file, source);
                return finish();
            }
        }
    }
    try {
        b.program = cl::Program(context, source);
        b.program.build(std::vector<cl::Device>{device}, options.c_str());
        b.log = withOriginalPositions(buildLog(b.program, device), file, source);
    } catch (const cl::Error& e) {
        // Compilers name the source after their own temporary file (PoCL) or a placeholder
        // ("<kernel>", NVIDIA, which also ignores #line): say the file and line it came from.
        b.log = b.program() ? withOriginalPositions(buildLog(b.program, device), file, source)
                            : std::string("(no program object)");
        b.error = "OpenCL build of kernels/" + file + " failed with " + clErrorName(e.err()) +
                  "\n  options: " + optionsText(options) + "\n  build log:\n" + b.log;
        b.program = cl::Program();
        return finish();
    }
    if (disk) {
        try {
            const auto binaries = b.program.getInfo<CL_PROGRAM_BINARIES>();
            const std::string why = binaries.empty()
                                        ? "the driver returned no binary"
                                        : disk->store(file, source, options, binaries[0]);
            if (!why.empty())
                b.cacheNote += (b.cacheNote.empty() ? "" : "; ") + ("not stored: " + why);
        } catch (const cl::Error& e) {
            b.cacheNote += std::string("; no binary to store: ") + clErrorName(e.err());
        }
    }
    return finish();
}

void ProgramCache::setVerbose(bool verbose) {
    gVerbose = verbose;
}
bool ProgramCache::verbose() {
    return gVerbose;
}

ProgramCache::ProgramCache(cl::Context context, cl::Device device,
                           std::optional<std::filesystem::path> diskDirectory)
    : context_(std::move(context)), device_(std::move(device)) {
    if (diskDirectory) disk_.emplace(*diskDirectory, device_);
}

const cl::Program& ProgramCache::get(const std::string& file, const std::string& options) {
    auto key = std::make_pair(file, options);
    {
        std::lock_guard lock(mutex_);
        if (auto it = programs_.find(key); it != programs_.end()) return it->second.program;
    }
    // Built without the lock: a build takes seconds, and the frame reads records() meanwhile
    // when a background job builds (the Kernels panel). Two threads that build the same program
    // at once both build; the first to finish is kept.
    const ExpandedKernelSource source = kernelProgramSource(file);
    ProgramBuild b =
        buildProgram(context_, device_, file, source.text, options, disk(), source.includes);
    if (gVerbose)
        std::fprintf(stderr, "clviz: kernels/%s [%s]: %s in %.0f ms%s%s\n", file.c_str(),
                     optionsText(options).c_str(),
                     !b.ok()                                  ? "build failed"
                     : b.origin == ProgramOrigin::BinaryCache ? "loaded from the binary cache"
                                                              : "built from source",
                     b.ms, b.cacheNote.empty() ? "" : "; cache: ", b.cacheNote.c_str());
    if (!b.ok()) throw Error(b.error);
    Entry e;
    e.program = b.program;
    e.sourceHash = b.sourceHash;
    e.includes = b.includes;
    e.record = {file, options, b.origin, b.ms, b.log, 0, ""};
    std::lock_guard lock(mutex_);
    return programs_.emplace(key, std::move(e)).first->second.program;
}

cl::Kernel ProgramCache::kernel(const std::string& file, const std::string& name,
                                const std::string& options) {
    const cl::Program& program = get(file, options);
    return clBoundary("no kernel '" + name + "' in kernels/" + file,
                      [&] { return cl::Kernel(program, name.c_str()); });
}

std::size_t ProgramCache::size() const {
    std::lock_guard lock(mutex_);
    return programs_.size();
}

std::vector<std::string> ProgramCache::optionsOf(const std::string& file) const {
    std::lock_guard lock(mutex_);
    std::vector<std::string> out;
    for (const auto& [key, entry] : programs_)
        if (key.first == file) out.push_back(key.second);
    return out;
}

std::optional<std::uint64_t> ProgramCache::sourceHashOf(const std::string& file,
                                                        const std::string& options) const {
    std::lock_guard lock(mutex_);
    auto it = programs_.find({file, options});
    if (it == programs_.end()) return std::nullopt;
    return it->second.sourceHash;
}

std::vector<std::string> ProgramCache::includesOf(const std::string& file) const {
    std::lock_guard lock(mutex_);
    std::vector<std::string> out;
    for (const auto& [key, entry] : programs_)
        if (key.first == file)
            for (const auto& h : entry.includes)
                if (std::find(out.begin(), out.end(), h) == out.end()) out.push_back(h);
    return out;
}

void ProgramCache::install(const std::string& file,
                           const std::map<std::string, ProgramBuild>& builds) {
    {
        std::lock_guard lock(mutex_);
        for (const auto& [options, b] : builds) {
            if (!b.ok()) continue;
            Entry& e = programs_[{file, options}];
            const int reloads = e.program() ? e.record.reloads + 1 : 0;
            e.program = b.program;
            e.sourceHash = b.sourceHash;
            e.includes = b.includes;
            e.record = {file, options, b.origin, b.ms, b.log, reloads, ""};
        }
    }
    ++generation_;
}

void ProgramCache::recordFailure(const std::string& file, const std::string& options,
                                 const std::string& error) {
    std::lock_guard lock(mutex_);
    if (auto it = programs_.find({file, options}); it != programs_.end())
        it->second.record.failure = error;
}

std::vector<ProgramRecord> ProgramCache::records() const {
    std::lock_guard lock(mutex_);
    std::vector<ProgramRecord> out;
    for (const auto& [key, entry] : programs_)
        out.push_back(entry.record);
    return out;
}

}  // namespace clviz
