#include "render/shader_source.hpp"

#include "compute/error.hpp"

#include <cstdlib>
#include <optional>

namespace clviz {

namespace {
std::optional<std::string> gShaderDir;  // GL thread only, like every shaderSource() call
}

std::string shaderDirectory() {
    if (gShaderDir) return *gShaderDir;
    const char* env = std::getenv("CLVIZ_SHADER_DIR");
    return env ? env : "";
}

void setShaderDirectory(const std::string& dir) {
    gShaderDir = dir;
}

std::string shaderSource(const std::string& name) {
    if (const std::string dir = shaderDirectory(); !dir.empty())
        return detail::readSourceFile(dir, "shader", name);
    for (const auto& s : detail::embeddedShaders())
        if (name == s.name) return s.source;
    throw Error("no embedded shader named '" + name + "'");
}

}  // namespace clviz
