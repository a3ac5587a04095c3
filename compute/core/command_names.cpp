#include "compute/core/command_names.hpp"

namespace clviz {

void CommandNames::note(const cl::Event& e, const cl::Kernel& k) {
    if (!e() || !k()) return;
    auto it = functionOf_.find(k());
    if (it == functionOf_.end())
        it = functionOf_.emplace(k(), k.getInfo<CL_KERNEL_FUNCTION_NAME>()).first;
    kernelOf_[e()] = it->second;
}

void CommandNames::note(const cl::Event& e, const std::string& kernel) {
    if (e()) kernelOf_[e()] = kernel;
}

std::string CommandNames::of(const cl::Event& e) const {
    if (!e()) return "";
    if (const auto it = kernelOf_.find(e()); it != kernelOf_.end()) return it->second;
    return commandTypeName(e.getInfo<CL_EVENT_COMMAND_TYPE>());
}

void CommandNames::clear() {
    kernelOf_.clear();
    functionOf_.clear();  // a kernel rebuilt after a reload may reuse a handle too
}

std::string commandTypeName(cl_command_type type) {
    switch (type) {
        case CL_COMMAND_NDRANGE_KERNEL:
        case CL_COMMAND_TASK:
            return "kernel";
        case CL_COMMAND_READ_BUFFER:
        case CL_COMMAND_READ_BUFFER_RECT:
            return "read buffer";
        case CL_COMMAND_WRITE_BUFFER:
        case CL_COMMAND_WRITE_BUFFER_RECT:
            return "write buffer";
        case CL_COMMAND_COPY_BUFFER:
        case CL_COMMAND_COPY_BUFFER_RECT:
            return "copy buffer";
        case CL_COMMAND_FILL_BUFFER:
            return "fill buffer";
        case CL_COMMAND_MARKER:
            return "marker";
        case CL_COMMAND_BARRIER:
            return "barrier";
        case CL_COMMAND_USER:
            return "user event";
        default:
            return "command " + std::to_string(type);
    }
}

}  // namespace clviz
