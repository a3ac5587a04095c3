#include "compute/core/kernel_source.hpp"

#include <cstdlib>
#include <mutex>
#include <optional>

namespace clviz {

namespace {
std::mutex gKernelDirMutex;
std::optional<std::string> gKernelDir;  // set at run time; overrides $CLVIZ_KERNEL_DIR
}  // namespace

std::string kernelDirectory() {
    std::lock_guard lock(gKernelDirMutex);
    if (gKernelDir) return *gKernelDir;
    const char* env = std::getenv("CLVIZ_KERNEL_DIR");
    return env ? env : "";
}

void setKernelDirectory(const std::string& dir) {
    std::lock_guard lock(gKernelDirMutex);
    gKernelDir = dir;
}

std::string kernelFile(const std::string& name) {
    return sourceFile(kernelDirectory(), detail::embeddedKernels(), "kernel", name);
}

ExpandedKernelSource kernelProgramSource(const std::string& name) {
    const std::string dir = kernelDirectory();  // one directory for the whole program
    return expandKernelIncludes(name, [&](const std::string& file) {
        return sourceFile(dir, detail::embeddedKernels(), "kernel", file);
    });
}

std::string kernelSource(const std::string& name) {
    return kernelProgramSource(name).text;
}

std::vector<std::string> kernelFileNames() {
    std::vector<std::string> names;
    for (const auto& k : detail::embeddedKernels())
        names.emplace_back(k.name);
    return names;
}

}  // namespace clviz
