#pragma once
// Text files compiled into the binary (OpenCL kernels, GLSL shaders; see cmake/EmbedKernels.cmake)
// so clviz runs from any directory as a single file, and the directory that overrides them for
// live editing (--kernel-dir, --shader-dir).
#include <string>
#include <vector>

namespace clviz {

struct EmbeddedFile {
    const char* name;  // file name as in the source tree ("grayscale.cl")
    const char* source;
};

// Contents of dir/name; throws clviz::Error naming the `what` file ("kernel") if it cannot be read.
std::string readSourceFile(const std::string& dir, const char* what, const std::string& name);

// dir/name when `dir` is not empty, else the embedded file called `name`; throws clviz::Error if
// there is none.
std::string sourceFile(const std::string& dir, const std::vector<EmbeddedFile>& embedded,
                       const char* what, const std::string& name);

}  // namespace clviz
