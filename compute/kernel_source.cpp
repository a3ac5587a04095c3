#include "compute/kernel_source.hpp"

#include <cstdlib>
#include <fstream>
#include <mutex>
#include <sstream>

#include "compute/error.hpp"

namespace clviz {

namespace {
std::mutex gKernelDirMutex;
std::optional<std::string> gKernelDir;  // set at run time; overrides $CLVIZ_KERNEL_DIR
}  // namespace

std::string detail::readSourceFile(const std::string& dir, const char* what,
                                   const std::string& name) {
    const std::string path = dir + "/" + name;
    std::ifstream in(path, std::ios::binary);
    if (!in) throw Error("cannot read " + std::string(what) + " file " + path);
    std::ostringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

std::optional<std::string> detail::readSourceOverride(const char* envVar, const char* what,
                                                      const std::string& name) {
    const char* dir = std::getenv(envVar);
    if (!dir || !*dir) return std::nullopt;
    try {
        return readSourceFile(dir, what, name);
    } catch (const Error& e) {
        throw Error(std::string(e.what()) + " (" + envVar + " is set)");
    }
}

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

std::string kernelSource(const std::string& name) {
    if (const std::string dir = kernelDirectory(); !dir.empty())
        return detail::readSourceFile(dir, "kernel", name);
    for (const auto& k : detail::embeddedKernels())
        if (name == k.name) return k.source;
    throw Error("no embedded kernel file named '" + name + "'");
}

std::vector<std::string> kernelFileNames() {
    std::vector<std::string> names;
    for (const auto& k : detail::embeddedKernels())
        names.emplace_back(k.name);
    return names;
}

}  // namespace clviz
