#pragma once
// OpenCL C sources from kernels/, embedded at build time. Setting CLVIZ_KERNEL_DIR makes clviz read
// them from that directory instead, so kernels can be edited without rebuilding.
#include <optional>
#include <string>
#include <vector>

namespace clviz {

namespace detail {
struct EmbeddedKernel {
    const char* name;
    const char* source;
};
const std::vector<EmbeddedKernel>& embeddedKernels();
// Contents of $envVar/<name> when envVar is set and not empty (live editing of embedded
// sources), else nullopt; throws clviz::Error naming the `what` file if it cannot be read.
std::optional<std::string> readSourceOverride(const char* envVar, const char* what,
                                              const std::string& name);
}  // namespace detail

// Source of kernels/<name> (e.g. "nbody.cl"); throws clviz::Error if there is none.
std::string kernelSource(const std::string& name);

// Names of every embedded kernel file.
std::vector<std::string> kernelFileNames();

}  // namespace clviz
