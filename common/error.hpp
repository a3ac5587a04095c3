#pragma once
// One exception type for user-facing failures: the message is meant to be printed as is.
#include <stdexcept>
#include <string>

namespace clviz {

class Error : public std::runtime_error {
  public:
    using std::runtime_error::runtime_error;
};

}  // namespace clviz
