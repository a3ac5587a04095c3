#pragma once
// What each enqueued command was, by its event, for timelines: a kernel's function name (noted
// when it was enqueued: an event does not say which kernel it ran), else the command's type
// ("fill buffer", "read buffer", "marker", ...).
#include <string>
#include <unordered_map>

#include "compute/core/cl.hpp"

namespace clviz {

class CommandNames {
  public:
    void note(const cl::Event& e, const cl::Kernel& k);  // e ran k
    void note(const cl::Event& e, const std::string& kernel);
    // The kernel noted for e, else its command type's name. Reads the event's info.
    std::string of(const cl::Event& e) const;
    void clear();  // with the events noted: a released event's handle may come back

  private:
    std::unordered_map<cl_event, std::string> kernelOf_;
    std::unordered_map<cl_kernel, std::string> functionOf_;  // CL_KERNEL_FUNCTION_NAME, cached
};

// "kernel", "fill buffer", "read buffer", ... for a CL_COMMAND_* type.
std::string commandTypeName(cl_command_type type);

}  // namespace clviz
