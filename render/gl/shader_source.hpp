#pragma once
// GLSL sources from shaders/, embedded at build time (CLVIZ_SHADER_DIR overrides for live editing).
#include <string>
#include <vector>

#include "common/embedded_files.hpp"

namespace clviz {

namespace detail {
const std::vector<EmbeddedFile>& embeddedShaders();
}

// Source of shaders/<name> (e.g. "particles.vert"); throws clviz::Error if there is none.
std::string shaderSource(const std::string& name);

// Where shaderSource() reads from: the directory set by setShaderDirectory() (live reload), else
// $CLVIZ_SHADER_DIR; "" means the embedded sources.
std::string shaderDirectory();
void setShaderDirectory(const std::string& dir);

}  // namespace clviz
