#include "render/gl/shader_source.hpp"

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
    return sourceFile(shaderDirectory(), detail::embeddedShaders(), "shader", name);
}

}  // namespace clviz
