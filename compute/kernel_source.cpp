#include "compute/kernel_source.hpp"

#include <cstdlib>
#include <fstream>
#include <sstream>

#include "compute/error.hpp"

namespace clviz {

std::optional<std::string> detail::readSourceOverride(const char* envVar, const char* what,
                                                      const std::string& name) {
    const char* dir = std::getenv(envVar);
    if (!dir || !*dir) return std::nullopt;
    const std::string path = std::string(dir) + "/" + name;
    std::ifstream in(path, std::ios::binary);
    if (!in)
        throw Error("cannot read " + std::string(what) + " file " + path + " (" + envVar +
                    " is set)");
    std::ostringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

std::string kernelSource(const std::string& name) {
    if (auto source = detail::readSourceOverride("CLVIZ_KERNEL_DIR", "kernel", name))
        return *source;
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
