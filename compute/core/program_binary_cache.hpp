#pragma once
// Built OpenCL program binaries on disk, so the next start skips the compiler: one file per
// (device, driver, file, options, source hash) under $XDG_CACHE_HOME/clviz/programs (else
// ~/.cache/clviz/programs). CLVIZ_PROGRAM_CACHE=off disables it; any other value is the directory.
//
// A file holds a header, the full key text and the binary with its checksum. Anything that does
// not match (another key under the same name, a short or corrupt file, a binary the driver
// refuses) is a miss: the caller builds from source and overwrites it. Files are written to a
// temporary name and renamed into place, so a reader (another clviz process, say a parallel ctest)
// sees the old file or the new one, never half of one. Safe to use from several threads.
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "compute/core/cl.hpp"

namespace clviz {

class ProgramBinaryCache {
  public:
    // The directory the environment asks for (see above); nullopt when disabled or no home.
    static std::optional<std::filesystem::path> defaultDirectory();

    // `device` provides the identity part of every key (name, vendor, versions, driver).
    ProgramBinaryCache(std::filesystem::path directory, const cl::Device& device);

    const std::filesystem::path& directory() const { return directory_; }

    // The cached binary for this program, or nullopt with `why` saying why not ("no entry",
    // "truncated", "checksum mismatch", ...).
    std::optional<std::vector<unsigned char>> load(const std::string& file,
                                                   const std::string& source,
                                                   const std::string& options,
                                                   std::string* why = nullptr) const;
    // Writes atomically (temp file + rename). Returns "" or why it could not (best effort: a
    // read-only cache directory only costs the next start a build).
    std::string store(const std::string& file, const std::string& source,
                      const std::string& options, const std::vector<unsigned char>& binary) const;

    // Where the entry for this program lives (tests corrupt it on purpose).
    std::filesystem::path pathFor(const std::string& file, const std::string& source,
                                  const std::string& options) const;

  private:
    std::string keyText(const std::string& file, const std::string& source,
                        const std::string& options) const;

    std::filesystem::path directory_;
    std::string deviceIdentity_;
};

// 64-bit FNV-1a: stable across runs, compilers and machines (std::hash is not).
std::uint64_t fnv1a64(const void* data, std::size_t size,
                      std::uint64_t seed = 14695981039346656037ull);

}  // namespace clviz
