#include "compute/kernel_source.hpp"

#include <cstdlib>
#include <fstream>
#include <sstream>

#include "compute/error.hpp"

namespace clviz {

std::string kernelSource(const std::string& name) {
    if (const char* dir = std::getenv("CLVIZ_KERNEL_DIR"); dir && *dir) {
        const std::string path = std::string(dir) + "/" + name;
        std::ifstream in(path, std::ios::binary);
        if (!in) throw Error("cannot read kernel file " + path + " (CLVIZ_KERNEL_DIR is set)");
        std::ostringstream ss;
        ss << in.rdbuf();
        return ss.str();
    }
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
