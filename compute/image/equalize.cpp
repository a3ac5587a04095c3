#include "compute/image/equalize.hpp"

#include <algorithm>

#include "compute/core/compute_context.hpp"
#include "compute/core/program_cache.hpp"
#include "compute/core/set_args.hpp"

namespace clviz {

namespace {
// Work-groups of the table-and-apply kernel per compute unit (256 work-items each; they loop
// over the image). 4 was the fastest on the H200 (8192^2: 92% of copy bandwidth; 8 and 16: 90%
// and 91%).
constexpr std::size_t kGroupsPerUnit = 4, kGroup = 256;
}  // namespace

ImageEqualize::ImageEqualize(ComputeContext& cc)
    : cc_(cc),
      histogram_(cc),
      apply_(cc.programs().kernel("equalize.cl", "equalize_apply")),
      bins_(cc.context(), CL_MEM_READ_WRITE, ImageHistogram::binsBytes()) {}

EnqueuedWork ImageEqualize::enqueue(const EqualizeParams& params, const cl::Buffer& src,
                                    ImageSize size, const cl::Buffer& dst,
                                    const std::optional<RotateGeometry>& coverage) {
    checkDeviceBufferFits(cc_.info(), size, "the image to equalize");
    const bool perChannel = params.mode == EqualizeMode::PerChannel;
    HistogramTuning tuning;
    tuning.bins = perChannel ? HistogramBins::RgbOnly : HistogramBins::LumaOnly;
    tuning.coverage = coverage;
    EnqueuedWork work;
    work.first = histogram_.enqueue(params.histogram, src, size, bins_, tuning).first;

    const std::size_t count = size.pixels();
    setArgs(apply_, src, dst, static_cast<cl_uint>(count), bins_, perChannel ? 1 : 0);
    // Enough groups to fill the device once, fewer for small images (each group builds the
    // tables once, then loops over its share of the image, 4 pixels per step).
    const std::size_t needed = (std::max<std::size_t>(count / 4, count % 4) + kGroup - 1) / kGroup;
    const std::size_t groups = std::clamp<std::size_t>(
        needed, 1, kGroupsPerUnit * std::max<std::size_t>(1, cc_.info().computeUnits));
    cc_.queue().enqueueNDRangeKernel(apply_, cl::NullRange, cl::NDRange(groups * kGroup),
                                     cl::NDRange(kGroup), nullptr, &work.last);
    return work;
}

}  // namespace clviz
