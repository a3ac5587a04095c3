#pragma once
// OpenCL failures as the rest of clviz sees them. cl::Error (the C++ bindings' exception) does
// not leave compute/: the operations that make OpenCL calls convert it once, at compute's
// boundary (clBoundary in compute/core/cl_boundary.hpp), into ClError, which keeps the error code
// and the OpenCL call that failed beside what clviz was doing. It is a clviz::Error, so the app
// and the benchmark catch one type.
#include <string>

#include "common/error.hpp"

namespace clviz {

// Readable name for an OpenCL error code: every core code of OpenCL 3.0 and the extension codes a
// driver can return to clviz ("CL_OUT_OF_RESOURCES"); "unknown OpenCL error" otherwise.
const char* clErrorName(int code);

class ClError : public Error {
  public:
    // what: what clviz was doing ("cannot upload the bodies to the device"); call: the OpenCL
    // function that failed ("clEnqueueWriteBuffer"), "" when unknown; code: its error code.
    ClError(const std::string& what, const std::string& call, int code);

    int code() const { return code_; }
    const std::string& call() const { return call_; }
    // What clviz was doing, as given (to say the same with more in front: which device).
    const std::string& doing() const { return doing_; }

    // The message every OpenCL failure is shown with, thrown or not:
    // "what: CL_NAME (code) in call" (without " in call" when the call is unknown).
    static std::string describe(const std::string& what, const std::string& call, int code);

  private:
    int code_;
    std::string call_;
    std::string doing_;
};

}  // namespace clviz
