#pragma once
// OpenCL C sources from kernels/, embedded at build time. Setting CLVIZ_KERNEL_DIR makes clviz read
// them from that directory instead, so kernels can be edited without rebuilding; --kernel-dir and
// the Kernels menu set the directory at run time (setKernelDirectory) for live reload.
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
// Contents of dir/name; throws clviz::Error naming the `what` file if it cannot be read.
std::string readSourceFile(const std::string& dir, const char* what, const std::string& name);
}  // namespace detail

// Where kernelSource() reads from: the directory set by setKernelDirectory(), else
// $CLVIZ_KERNEL_DIR; "" means the embedded sources. Thread-safe.
std::string kernelDirectory();
void setKernelDirectory(const std::string& dir);

// Source of kernels/<name> (e.g. "nbody.cl"); throws clviz::Error if there is none.
std::string kernelSource(const std::string& name);

// Names of every embedded kernel file.
std::vector<std::string> kernelFileNames();

}  // namespace clviz
