#include "compute/linalg/reduction.hpp"

#include <algorithm>
#include <cstring>
#include <limits>
#include <vector>

#include "common/error.hpp"
#include "compute/core/compute_context.hpp"
#include "compute/core/profiling.hpp"
#include "compute/core/program_cache.hpp"
#include "compute/core/set_args.hpp"

namespace clviz {

namespace {

constexpr LinalgVariantInfo kVariants[kReduceVariantCount] = {
    {"reduce-course", "uint4 tree + host pass (course)",
     "One 4-wide load per work-item, an interleaved local tree, the partials added on the host.",
     "reduce.cl:reduce_course", "-DOP_* -DT_UINT", "work-group size", false},
    {"reduce-tree", "Conflict-free local tree",
     "Grid-stride private folds, then a sequential-addressing tree; a second launch adds the "
     "partials.",
     "reduce.cl:reduce_tree", "-DOP_* -DT_UINT", "work-group size", false},
    {"reduce-subgroup", "Sub-group / warp shuffle",
     "Private folds, then sub_group_reduce (cl_khr_subgroups) or shfl.sync butterflies (NVIDIA "
     "inline PTX); a local tree where neither exists.",
     "reduce.cl:reduce_subgroup", "-DHAS_SUBGROUPS -DNV_INLINE_PTX", "work-group size", true},
    {"reduce-onepass", "One pass, last group finishes",
     "One launch: each group publishes its partial and takes an atomic ticket; the last one adds "
     "all partials.",
     "reduce.cl:reduce_onepass", "-DOP_* -DT_UINT", "work-group size", false},
};

const char* opDefine(ReduceOp op) {
    return op == ReduceOp::Sum ? " -DOP_SUM" : op == ReduceOp::Min ? " -DOP_MIN" : " -DOP_MAX";
}

template <typename T>
double combineHost(ReduceOp op, const std::vector<T>& v) {
    T acc = op == ReduceOp::Sum                    ? T(0)
            : op == ReduceOp::Min                  ? std::numeric_limits<T>::has_infinity
                                                         ? std::numeric_limits<T>::infinity()
                                                         : std::numeric_limits<T>::max()
                             : std::numeric_limits<T>::has_infinity ? -std::numeric_limits<T>::infinity()
                                                   : std::numeric_limits<T>::lowest();
    for (T x : v)
        acc = op == ReduceOp::Sum   ? T(acc + x)
              : op == ReduceOp::Min ? std::min(acc, x)
                                    : std::max(acc, x);
    return static_cast<double>(acc);
}

}  // namespace

const LinalgVariantInfo& reduceVariantInfo(ReduceVariant variant) {
    return kVariants[static_cast<int>(variant)];
}

ReduceVariant reduceVariantFromId(const std::string& id) {
    for (int v = 0; v < kReduceVariantCount; ++v)
        if (id == kVariants[v].id) return static_cast<ReduceVariant>(v);
    throw Error("unknown reduction variant '" + id +
                "' (known: reduce-course, reduce-tree, reduce-subgroup, reduce-onepass)");
}

const char* reduceOpName(ReduceOp op) {
    return op == ReduceOp::Sum ? "sum" : op == ReduceOp::Min ? "min" : "max";
}

Reduction::Reduction(ComputeContext& cc)
    : cc_(cc),
      subgroups_(cc.info().hasExtension("cl_khr_subgroups")),
      ptx_(cc),
      kernels_(cc),
      ticket_(cc.context(), CL_MEM_READ_WRITE, sizeof(cl_uint)),
      result_(cc.context(), CL_MEM_READ_WRITE, sizeof(cl_uint)) {
    cc.queue().enqueueFillBuffer(ticket_, cl_uint(0), 0, sizeof(cl_uint));
}

ReduceResult Reduction::reduce(ReduceVariant variant, ReduceOp op, ReduceType type,
                               const cl::Buffer& data, std::size_t count, int workGroupSize) {
    const LinalgVariantInfo& info = reduceVariantInfo(variant);
    if (count < 1) throw Error(std::string(info.id) + ": nothing to reduce (count 0)");
    if (data.getInfo<CL_MEM_SIZE>() < count * 4)
        throw Error(std::string(info.id) + ": the buffer holds fewer than " +
                    std::to_string(count) + " elements");
    const DeviceInfo& dev = cc_.info();
    const std::size_t wg = workGroupSize > 0 ? static_cast<std::size_t>(workGroupSize)
                                             : std::min<std::size_t>(256, dev.maxWorkGroupSize);
    if (wg > dev.maxWorkGroupSize || (wg & (wg - 1)) != 0)
        throw Error(std::string(info.id) + ": the work-group size must be a power of two up to " +
                    std::to_string(dev.maxWorkGroupSize) + " (got " + std::to_string(wg) + ")");
    std::string options = std::string(opDefine(op)) + (type == ReduceType::Uint ? " -DT_UINT" : "");
    // One wave of groups for the grid-stride kernels: enough to cover every unit several times.
    const std::size_t wave = std::max(1u, dev.computeUnits) * std::max<std::size_t>(1, 2048 / wg);
    const std::size_t quads = (count + 3) / 4;
    std::size_t groups = variant == ReduceVariant::CourseUint4
                             ? (quads + wg - 1) / wg
                             : std::clamp<std::size_t>((quads + wg - 1) / wg, 1, wave);
    if (groups > std::numeric_limits<cl_uint>::max()) throw Error("reduction: too many groups");
    if (groups > partialCapacity_) {
        partials_ = cl::Buffer(cc_.context(), CL_MEM_READ_WRITE, groups * 4);
        partialCapacity_ = groups;
    }
    cl::CommandQueue& q = cc_.queue();
    ReduceResult out;
    cl::Event first, last;
    auto launch = [&](cl::Kernel& k, const cl::Buffer& in, cl_ulong n, const cl::Buffer& outBuf,
                      std::size_t g, cl::Event* ev) {
        setArgs(k, in, n, outBuf, cl::Local(wg * 4));
        q.enqueueNDRangeKernel(k, cl::NullRange, cl::NDRange(g * wg), cl::NDRange(wg), nullptr, ev);
    };
    std::vector<cl_uint> bits;  // the result(s) read back, as raw 32-bit words
    switch (variant) {
        case ReduceVariant::CourseUint4: {
            cl::Kernel& k = kernels_.get("reduce.cl", "reduce_course", options);
            launch(k, data, count, partials_, groups, &first);
            last = first;
            bits.resize(groups);
            q.enqueueReadBuffer(partials_, CL_TRUE, 0, groups * 4, bits.data());
            break;
        }
        case ReduceVariant::ConflictFree:
        case ReduceVariant::Subgroup: {
            const char* name = "reduce_tree";
            if (variant == ReduceVariant::Subgroup) {
                name = "reduce_subgroup";
                if (subgroups_) options += " -DHAS_SUBGROUPS";
            }
            cl::Kernel& k =
                kernels_.get("reduce.cl", name, options,
                             variant == ReduceVariant::Subgroup && !subgroups_ ? &ptx_ : nullptr);
            launch(k, data, count, partials_, groups, &first);
            out.subgroups = variant == ReduceVariant::Subgroup && (subgroups_ || ptx_.active());
            // The partials by one group, into result_.
            cl::Kernel& k2 = kernels_.get("reduce.cl", "reduce_tree", options);
            launch(k2, partials_, groups, result_, 1, &last);
            bits.resize(1);
            q.enqueueReadBuffer(result_, CL_TRUE, 0, 4, bits.data());
            break;
        }
        case ReduceVariant::OnePass: {
            // With NVIDIA's inline PTX: the device-scope fence between a group's partial and its
            // ticket (kernels/common/device_fence.clh).
            cl::Kernel& k = kernels_.get("reduce.cl", "reduce_onepass", options, &ptx_);
            k.setArg(4, ticket_);
            k.setArg(5, result_);
            launch(k, data, count, partials_, groups, &first);
            last = first;
            bits.resize(1);
            q.enqueueReadBuffer(result_, CL_TRUE, 0, 4, bits.data());
            break;
        }
    }
    out.ms = spanMilliseconds(first, last);
    if (type == ReduceType::Uint) {
        out.value = combineHost(op, bits);
    } else {
        // The course's host pass over many partials adds in double (float would lose digits).
        std::vector<float> f(bits.size());
        std::memcpy(f.data(), bits.data(), bits.size() * 4);
        out.value = op == ReduceOp::Sum ? combineHost(op, std::vector<double>(f.begin(), f.end()))
                                        : combineHost(op, f);
    }
    return out;
}

double referenceReduce(ReduceOp op, const float* data, std::size_t count) {
    double acc = op == ReduceOp::Sum ? 0.0 : data[0];
    for (std::size_t i = 0; i < count; ++i)
        acc = op == ReduceOp::Sum   ? acc + data[i]
              : op == ReduceOp::Min ? std::min<double>(acc, data[i])
                                    : std::max<double>(acc, data[i]);
    return acc;
}

double referenceReduce(ReduceOp op, const unsigned* data, std::size_t count) {
    unsigned acc = op == ReduceOp::Sum ? 0u : data[0];
    for (std::size_t i = 0; i < count; ++i)
        acc = op == ReduceOp::Sum   ? acc + data[i]
              : op == ReduceOp::Min ? std::min(acc, data[i])
                                    : std::max(acc, data[i]);
    return static_cast<double>(acc);
}

}  // namespace clviz
