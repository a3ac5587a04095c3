#include "render/shader_source.hpp"

#include <cstdlib>
#include <fstream>
#include <sstream>

#include "compute/error.hpp"

namespace clviz {

std::string shaderSource(const std::string& name) {
    if (const char* dir = std::getenv("CLVIZ_SHADER_DIR"); dir && *dir) {
        const std::string path = std::string(dir) + "/" + name;
        std::ifstream in(path, std::ios::binary);
        if (!in) throw Error("cannot read shader file " + path + " (CLVIZ_SHADER_DIR is set)");
        std::ostringstream ss;
        ss << in.rdbuf();
        return ss.str();
    }
    for (const auto& s : detail::embeddedShaders())
        if (name == s.name) return s.source;
    throw Error("no embedded shader named '" + name + "'");
}

}  // namespace clviz
