#pragma once
// One exception type for user-facing failures: the message is meant to be printed as is.
#include <stdexcept>
#include <string>

namespace clviz {

class Error : public std::runtime_error {
  public:
    using std::runtime_error::runtime_error;
};

// Readable name for an OpenCL error code (CL_OUT_OF_RESOURCES, ...).
const char* clErrorName(int code);

// Message for a cl::Error caught from the C++ bindings: "what(): CL_NAME (code)".
std::string describeClError(const char* what, int code);

}  // namespace clviz
