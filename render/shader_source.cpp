#include "render/shader_source.hpp"

#include "compute/error.hpp"

namespace clviz {

std::string shaderSource(const std::string& name) {
    if (auto source = detail::readSourceOverride("CLVIZ_SHADER_DIR", "shader", name))
        return *source;
    for (const auto& s : detail::embeddedShaders())
        if (name == s.name) return s.source;
    throw Error("no embedded shader named '" + name + "'");
}

}  // namespace clviz
