#pragma once
// Builds OpenCL programs from kernels/ once per (file, options) for one device and context.
#include <map>
#include <mutex>
#include <string>
#include <utility>

#include "compute/cl.hpp"

namespace clviz {

class ProgramCache {
  public:
    ProgramCache(cl::Context context, cl::Device device);

    // The built program for kernels/<file> compiled with `options`. A failed build throws
    // clviz::Error whose message holds the options and the full build log.
    const cl::Program& get(const std::string& file, const std::string& options = "");

    // Convenience: a fresh cl::Kernel (kernels carry their arguments, so each user gets its own).
    cl::Kernel kernel(const std::string& file, const std::string& name,
                      const std::string& options = "");

    std::size_t size() const;

  private:
    cl::Context context_;
    cl::Device device_;
    mutable std::mutex mutex_;
    std::map<std::pair<std::string, std::string>, cl::Program> programs_;
};

}  // namespace clviz
