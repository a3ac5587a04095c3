#include "compute/nbody/autotune_store.hpp"

#include <bit>
#include <fstream>
#include <sstream>

#include "compute/core/device_info.hpp"

namespace clviz {

namespace {

bool isPow2(int v) {
    return v > 0 && (v & (v - 1)) == 0;
}

// A line's fields, or nothing when they do not describe a launchable config (a hand-edited or
// truncated file must not reach the kernel build).
std::optional<NbodyTunedConfig> parseFields(const std::string& text) {
    std::istringstream fields(text);
    NbodyTunedConfig t;
    NbodyKernelConfig& c = t.config;
    if (!(fields >> c.workGroupSize >> c.unroll >> c.bodiesPerItem >> c.split) ||
        !isPow2(c.workGroupSize) || !isPow2(c.unroll) || !isPow2(c.bodiesPerItem) ||
        !isPow2(c.split) || c.bodiesPerItem > 8 || c.split > 32)
        return std::nullopt;
    if (!(fields >> t.ms)) t.ms = 0;
    return t;
}

}  // namespace

NbodyAutotuneStore::NbodyAutotuneStore(std::filesystem::path file) : file_(std::move(file)) {}

std::filesystem::path NbodyAutotuneStore::userCacheFile(const char* xdgCacheHome,
                                                        const char* home) {
    if (xdgCacheHome && *xdgCacheHome)
        return std::filesystem::path(xdgCacheHome) / "clviz" / "nbody-autotune.txt";
    if (home && *home)
        return std::filesystem::path(home) / ".cache" / "clviz" / "nbody-autotune.txt";
    return {};
}

std::string NbodyAutotuneStore::key(const DeviceInfo& d, NbodyVariant v, NbodyPrecision p,
                                    std::size_t n) {
    return d.name + "|" + d.driverVersion + "|" + variantName(v) + "|" +
           (p == NbodyPrecision::Double ? "fp64" : "fp32") + "|n2^" +
           std::to_string(std::bit_width(std::max<std::size_t>(n, 1) - 1));
}

std::optional<NbodyTunedConfig> NbodyAutotuneStore::find(const std::string& key) {
    std::lock_guard lock(mutex_);
    loadOnce();
    const auto it = best_.find(key);
    if (it == best_.end()) return std::nullopt;
    return it->second;
}

void NbodyAutotuneStore::store(const std::string& key, const NbodyKernelConfig& c, double ms) {
    std::lock_guard lock(mutex_);
    loadOnce();
    best_[key] = {c, ms};
    if (file_.empty()) return;
    std::error_code ec;
    std::filesystem::create_directories(file_.parent_path(), ec);
    std::ofstream out(file_, std::ios::app);  // best effort: a read-only home is fine
    if (out)
        out << key << '\t' << c.workGroupSize << ' ' << c.unroll << ' ' << c.bodiesPerItem << ' '
            << c.split << ' ' << ms << '\n';
}

void NbodyAutotuneStore::loadOnce() {
    if (loaded_) return;
    loaded_ = true;
    if (file_.empty()) return;
    std::ifstream in(file_);
    for (std::string line; std::getline(in, line);) {
        const auto tab = line.find('\t');
        if (tab == std::string::npos) continue;
        if (auto t = parseFields(line.substr(tab + 1))) best_[line.substr(0, tab)] = *t;
    }
}

}  // namespace clviz
