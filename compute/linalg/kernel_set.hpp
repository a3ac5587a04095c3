#pragma once
// The built kernels of one linear-algebra object, by file, name and options, so that enqueues
// every frame (the lab's live view) do not create a kernel each time. Emptied when the program
// cache's generation moves (a live reload installed new programs).
#include <map>
#include <string>

#include "compute/core/cl.hpp"

namespace clviz {

class ComputeContext;
class InlinePtxBuilds;

class KernelSet {
  public:
    explicit KernelSet(ComputeContext& cc) : cc_(cc) {}

    // kernels/<file>'s `name` built with `options`; through `ptx` (tried with -DNV_INLINE_PTX
    // first) when given. Throws clviz::Error when the build fails.
    cl::Kernel& get(const std::string& file, const std::string& name, const std::string& options,
                    InlinePtxBuilds* ptx = nullptr);

  private:
    ComputeContext& cc_;
    std::map<std::string, cl::Kernel> kernels_;
    long long generation_ = -1;
};

}  // namespace clviz
