#pragma once
// The default device (PoCL's CPU device on CI) for the tests of one executable: created on first
// use and kept, so program builds are shared between the tests.
#include <memory>

#include "compute/core/compute_context.hpp"

namespace clviz::test {

inline ComputeContext& context() {
    static std::unique_ptr<ComputeContext> cc = ComputeContext::create(DeviceRequest{});
    return *cc;
}

}  // namespace clviz::test
