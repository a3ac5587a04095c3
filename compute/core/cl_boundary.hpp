#pragma once
// compute's error boundary: runs an operation that makes OpenCL calls and turns a cl::Error it
// throws into a ClError that says what failed, keeping the code and the call.
#include <concepts>
#include <string>
#include <utility>

#include "compute/core/cl.hpp"
#include "compute/core/cl_error.hpp"

namespace clviz {

// The bindings report the failed call's name as what() ("clEnqueueNDRangeKernel").
[[noreturn]] inline void throwClError(const std::string& what, const cl::Error& e) {
    throw ClError(what, e.what() ? e.what() : "", e.err());
}

// Whether the command behind `event` has finished, asked without waiting; a command that ended
// in an error throws ClError(`failed`, its status).
inline bool eventComplete(const cl::Event& event, const std::string& failed) {
    const cl_int status = event.getInfo<CL_EVENT_COMMAND_EXECUTION_STATUS>();
    if (status < 0) throw ClError(failed, "", status);
    return status == CL_COMPLETE;
}

// A public entry point of compute/: clBoundary("cannot read the bodies", [&] { ... }) runs the
// body and reports a failed OpenCL call as "cannot read the bodies: clEnqueueReadBuffer ...".
template <class F>
decltype(auto) clBoundary(const std::string& what, F&& operation) {
    try {
        return std::forward<F>(operation)();
    } catch (const cl::Error& e) {
        throwClError(what, e);
    }
}

// The same with the message built only on failure, for one that reads state ("N-body step failed
// (tiled, wg 64)") on a path that runs every step.
template <std::invocable What, class F>
decltype(auto) clBoundary(What&& what, F&& operation) {
    try {
        return std::forward<F>(operation)();
    } catch (const cl::Error& e) {
        throwClError(std::forward<What>(what)(), e);
    }
}

}  // namespace clviz
