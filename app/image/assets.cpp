#include "app/image/assets.hpp"

#include <cstdlib>
#include <filesystem>
#include <system_error>

namespace clviz {

namespace {

std::filesystem::path executableDir() {
    std::error_code ec;
    const auto exe = std::filesystem::read_symlink("/proc/self/exe", ec);
    return ec ? std::filesystem::path() : exe.parent_path();
}

}  // namespace

std::vector<std::string> assetCandidates(const std::string& name) {
    std::vector<std::string> out;
    // Like CLVIZ_KERNEL_DIR: when set, it is the only place looked in.
    if (const char* dir = std::getenv("CLVIZ_ASSET_DIR"); dir && *dir)
        return {(std::filesystem::path(dir) / name).string()};
#ifdef CLVIZ_ASSET_DIR
    out.push_back((std::filesystem::path(CLVIZ_ASSET_DIR) / name).string());
#endif
    if (const auto dir = executableDir(); !dir.empty()) {
        out.push_back((dir / "assets" / name).string());
        out.push_back((dir / ".." / "assets" / name).lexically_normal().string());
        out.push_back(
            (dir / ".." / "share" / "clviz" / "assets" / name).lexically_normal().string());
    }
    return out;
}

std::optional<std::string> findAsset(const std::string& name) {
    for (const auto& path : assetCandidates(name)) {
        std::error_code ec;
        if (std::filesystem::is_regular_file(path, ec)) return path;
    }
    return std::nullopt;
}

}  // namespace clviz
