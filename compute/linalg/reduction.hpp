#pragma once
// Sum, min and max of a float or uint array on the device (kernels/reduce.cl), in the variants
// the course leads through: its uint4 local-memory tree with a host pass, a tree without local
// bank conflicts, sub-group (warp-shuffle) reduction, and one pass with a last-group finish.
#include <cstddef>
#include <string>

#include "compute/core/cl.hpp"
#include "compute/core/inline_ptx.hpp"
#include "compute/linalg/kernel_set.hpp"
#include "compute/linalg/linalg_variant.hpp"

namespace clviz {

class ComputeContext;

enum class ReduceVariant {
    CourseUint4,   // the course: 4-wide loads, interleaved local tree, partials summed on host
    ConflictFree,  // sequential addressing (stride halves), partials by a second kernel
    Subgroup,      // sub_group_reduce_* where cl_khr_subgroups exists, else a local tree
    OnePass,       // one kernel: the last work-group to finish (atomic ticket) reduces partials
};
constexpr int kReduceVariantCount = 4;
const LinalgVariantInfo& reduceVariantInfo(ReduceVariant variant);
ReduceVariant reduceVariantFromId(const std::string& id);

enum class ReduceOp { Sum, Min, Max };
enum class ReduceType { Float, Uint };
const char* reduceOpName(ReduceOp op);

// uint sums wrap modulo 2^32 like C's unsigned arithmetic (the references do the same); float
// sums are FP32 trees, so they differ from a double sum by rounding only.
struct ReduceResult {
    double value = 0;        // the float result, or the uint result converted exactly
    double ms = 0;           // device time of every kernel, plus nothing for the host pass
    bool subgroups = false;  // Subgroup: sub-groups or warp shuffles were used (not the tree)
};

class Reduction {
  public:
    explicit Reduction(ComputeContext& cc);

    // Reduces `count` elements of `data` (cl_float or cl_uint). count >= 1.
    ReduceResult reduce(ReduceVariant variant, ReduceOp op, ReduceType type, const cl::Buffer& data,
                        std::size_t count, int workGroupSize = 0);

    bool hasSubgroups() const { return subgroups_; }

  private:
    ComputeContext& cc_;
    bool subgroups_;
    InlinePtxBuilds
        ptx_;  // the sub-group variant's shfl.sync fallback, the one pass's device fence
    KernelSet kernels_;
    cl::Buffer partials_, ticket_, result_;
    std::size_t partialCapacity_ = 0;
};

// References: double accumulation for float sums; exact wrapping for uint sums.
double referenceReduce(ReduceOp op, const float* data, std::size_t count);
double referenceReduce(ReduceOp op, const unsigned* data, std::size_t count);

}  // namespace clviz
