#pragma once
// compute's error boundary: runs an operation that makes OpenCL calls and turns a cl::Error it
// throws into a ClError that says what failed, keeping the code and the call.
#include <string>
#include <utility>

#include "compute/core/cl.hpp"
#include "compute/core/cl_error.hpp"

namespace clviz {

// The bindings report the failed call's name as what() ("clEnqueueNDRangeKernel").
[[noreturn]] inline void throwClError(const std::string& what, const cl::Error& e) {
    throw ClError(what, e.what() ? e.what() : "", e.err());
}

template <class F>
decltype(auto) clBoundary(const std::string& what, F&& operation) {
    try {
        return std::forward<F>(operation)();
    } catch (const cl::Error& e) {
        throwClError(what, e);
    }
}

}  // namespace clviz
