#pragma once
// Names for OpenCL error codes, for messages a user reads.
#include <string>

namespace clviz {

// Readable name for an OpenCL error code (CL_OUT_OF_RESOURCES, ...).
const char* clErrorName(int code);

// Message for a cl::Error caught from the C++ bindings: "what(): CL_NAME (code)".
std::string describeClError(const char* what, int code);

}  // namespace clviz
