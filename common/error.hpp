#pragma once
// The one exception type for failures a user causes or must be told about (a refused setting, a
// file that cannot be read, a device that fails): its message is the sentence the user sees,
// printed as is. Functions at the app's boundary report failures only by throwing it (or a
// subclass: UsageError for a bad command line, ClError for OpenCL), never by returning a "why"
// string; the few places that catch it turn it into a notice or an exit status
// (docs/architecture.md, "Failures"). Anything else thrown (std::logic_error, std::bad_alloc) is
// a bug or an exhausted machine, not a message written for the user.
#include <stdexcept>
#include <string>

namespace clviz {

class Error : public std::runtime_error {
  public:
    using std::runtime_error::runtime_error;
};

}  // namespace clviz
