#pragma once
// Where N-body auto-tune results are remembered: the best force-kernel launch config per device,
// driver, variant, precision and N (as a power-of-two bucket), in memory and, when a file is
// given, in that file ("key<TAB>wg unroll bpi split ms" lines, appended; later lines win).
// One store is shared by the simulations of a process (thread-safe); the caller says where it
// lives, so tests and the benchmark can keep theirs private.
#include <cstddef>
#include <filesystem>
#include <map>
#include <mutex>
#include <optional>
#include <string>

#include "compute/nbody/variants.hpp"

namespace clviz {

struct DeviceInfo;

struct NbodyTunedConfig {
    NbodyKernelConfig config;
    double ms = 0;  // its force-pass time; 0 if unknown
};

class NbodyAutotuneStore {
  public:
    // An empty path keeps results in memory only. The file is read on first use; a missing or
    // unwritable file is not an error (a read-only home is fine).
    explicit NbodyAutotuneStore(std::filesystem::path file = {});

    // $XDG_CACHE_HOME/clviz/nbody-autotune.txt, else $HOME/.cache/clviz/nbody-autotune.txt, else
    // empty. The caller passes the variables (read once, at the program's edge).
    static std::filesystem::path userCacheFile(const char* xdgCacheHome, const char* home);
    static std::string key(const DeviceInfo& device, NbodyVariant v, NbodyPrecision p,
                           std::size_t n);

    std::optional<NbodyTunedConfig> find(const std::string& key);
    void store(const std::string& key, const NbodyKernelConfig& c, double ms);
    const std::filesystem::path& file() const { return file_; }

  private:
    void loadOnce();

    std::filesystem::path file_;
    std::mutex mutex_;
    bool loaded_ = false;
    std::map<std::string, NbodyTunedConfig> best_;
};

}  // namespace clviz
