#pragma once
// A kernel's arguments in one call, in order: setArgs(k, n, positions, cl::Local(bytes)) is
// k.setArg(0, n); k.setArg(1, positions); k.setArg(2, cl::Local(bytes)). A missing or extra
// argument then shows as one call that does not match the kernel's list.
#include "compute/core/cl.hpp"

namespace clviz {

template <class... Args>
void setArgs(cl::Kernel& kernel, const Args&... args) {
    cl_uint index = 0;
    (kernel.setArg(index++, args), ...);
}

}  // namespace clviz
