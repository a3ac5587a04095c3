#pragma once
// Builds OpenCL programs from kernels/ once per (file, options) for one device and context, through
// the on-disk binary cache (program_binary_cache.hpp) when there is one. Live reload
// (kernel_reloader.hpp) swaps rebuilt programs in; users that hold cl::Kernel objects watch
// generation() and fetch fresh kernels when it moves.
#include <atomic>
#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "compute/core/cl.hpp"
#include "compute/core/program_binary_cache.hpp"

namespace clviz {

enum class ProgramOrigin { Source, BinaryCache };

// One build of one program, on any thread (clBuildProgram is thread-safe).
struct ProgramBuild {
    cl::Program program;  // null when the build failed
    std::string error;    // "" on success, else the full message: options and build log
    std::string log;      // the compiler's log (warnings on success)
    ProgramOrigin origin = ProgramOrigin::Source;
    double ms = 0;          // wall time of the build (or of loading the binary)
    std::string cacheNote;  // why the binary cache was not used ("" when it was, or disabled)
    std::uint64_t sourceHash = 0;       // of the expanded source: headers' text included
    std::vector<std::string> includes;  // the headers spliced into the source
    bool ok() const { return error.empty(); }
};

// Builds kernels/<file> from `source` (its includes expanded, kernel_includes.hpp; `includes`
// names the headers in it): first from `disk`'s binary when it has a valid one, else from source
// (then stores the binary). The disk key holds the whole expanded text, so an edited header is a
// miss. Never throws; failures are in the result.
ProgramBuild buildProgram(const cl::Context& context, const cl::Device& device,
                          const std::string& file, const std::string& source,
                          const std::string& options, const ProgramBinaryCache* disk,
                          const std::vector<std::string>& includes = {});

// What the Kernels panel lists.
struct ProgramRecord {
    std::string file, options;
    ProgramOrigin origin = ProgramOrigin::Source;
    double buildMs = 0;
    std::string log;      // compiler log of the build in use
    int reloads = 0;      // rebuilds installed since start
    std::string failure;  // the last rebuild's error when it failed (the old build still runs)
};

class ProgramCache {
  public:
    // `diskDirectory`: where binaries are kept; nullopt: memory only.
    ProgramCache(cl::Context context, cl::Device device,
                 std::optional<std::filesystem::path> diskDirectory =
                     ProgramBinaryCache::defaultDirectory());

    // The built program for kernels/<file> compiled with `options`. A failed build throws
    // clviz::Error whose message holds the options and the full build log.
    const cl::Program& get(const std::string& file, const std::string& options = "");

    // Convenience: a fresh cl::Kernel (kernels carry their arguments, so each user gets its own).
    cl::Kernel kernel(const std::string& file, const std::string& name,
                      const std::string& options = "");

    std::size_t size() const;

    // --- live reload ---------------------------------------------------------------------------
    // Moves each time install() replaces programs.
    long long generation() const { return generation_.load(); }
    // The option sets kernels/<file> is built with (what a reload must rebuild).
    std::vector<std::string> optionsOf(const std::string& file) const;
    // Hash of the source the running build of (file, options) came from.
    std::optional<std::uint64_t> sourceHashOf(const std::string& file,
                                              const std::string& options) const;
    // The headers the running builds of `file` include (what a header edit must rebuild).
    std::vector<std::string> includesOf(const std::string& file) const;
    // Replaces the programs of `file` by these successful builds (option set -> build) and
    // bumps generation(). Call at a frame boundary, on the thread that uses the kernels.
    void install(const std::string& file, const std::map<std::string, ProgramBuild>& builds);
    // Records a failed rebuild of (file, options); the running build stays.
    void recordFailure(const std::string& file, const std::string& options,
                       const std::string& error);
    std::vector<ProgramRecord> records() const;

    const cl::Context& context() const { return context_; }
    const cl::Device& device() const { return device_; }
    const ProgramBinaryCache* disk() const { return disk_ ? &*disk_ : nullptr; }

    // --verbose: say on stderr where every program came from and why the cache was not used.
    static void setVerbose(bool verbose);
    static bool verbose();

  private:
    struct Entry {
        cl::Program program;
        ProgramRecord record;
        std::uint64_t sourceHash = 0;
        std::vector<std::string> includes;
    };
    cl::Context context_;
    cl::Device device_;
    std::optional<ProgramBinaryCache> disk_;
    mutable std::mutex mutex_;
    std::map<std::pair<std::string, std::string>, Entry> programs_;
    std::atomic<long long> generation_{0};
};

}  // namespace clviz
