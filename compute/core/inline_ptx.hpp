#pragma once
// Some kernels use a few instructions OpenCL C cannot express on NVIDIA (two-lane min/max, byte
// permutes, FP16 pairs, the flush-to-zero rsqrt; kernels/common/nv_inline_ptx.clh) through
// inline PTX, behind `#ifdef NV_INLINE_PTX`. Only NVIDIA's
// compiler takes inline PTX (an older GPU may still refuse an instruction), so the option is
// tried only where the device is NVIDIA's, and after the first refusal every build is portable.
#include <string>

#include "compute/core/cl.hpp"

namespace clviz {

class ComputeContext;

// The one switch every kernel's inline PTX is behind (-D<this>).
inline constexpr const char* kInlinePtxDefine = "NV_INLINE_PTX";

class InlinePtxBuilds {
  public:
    explicit InlinePtxBuilds(ComputeContext& cc);
    // `tryInlinePtx` overrides the device check (tests: a compiler that refuses inline PTX).
    InlinePtxBuilds(ComputeContext& cc, bool tryInlinePtx);

    // kernels/<file>'s kernel `name` built with `options` plus -DNV_INLINE_PTX where that is
    // still being tried, else with `options` alone. Only a refusal that the portable build
    // does not share turns the PTX builds off; a portable build that fails throws.
    cl::Kernel kernel(const std::string& file, const std::string& name, const std::string& options);

    bool active() const { return active_; }

  private:
    ComputeContext& cc_;
    bool active_;
};

}  // namespace clviz
