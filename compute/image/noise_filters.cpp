#include "compute/image/noise_filters.hpp"

#include "common/error.hpp"
#include "compute/core/compute_context.hpp"
#include "compute/core/program_cache.hpp"
#include "compute/core/set_args.hpp"

namespace clviz {

namespace {
// GROUP_X, GROUP_Y and ROWS in kernels/noise_filters.cl: each work-item makes 4 x kRows pixels.
constexpr std::size_t kGroupX = 32, kGroupY = 4, kRows = 4;
}  // namespace

ImageNoiseFilter::ImageNoiseFilter(ComputeContext& cc) : cc_(cc), ptx_(cc) {
    kernel(NoiseFilter::Mean3, 4);  // build now, so a kernel that does not compile fails here
}

cl::Kernel& ImageNoiseFilter::kernel(NoiseFilter filter, int width) {
    const bool aligned = width % 4 == 0;
    const bool median = filter == NoiseFilter::Median3;
    cl::Kernel& k = kernels_[median][aligned];
    if (k()) return k;
    const std::string options = aligned ? "-DALIGNED_ROWS" : "";
    if (median) return k = ptx_.kernel("noise_filters.cl", "median3", options);
    return k = cc_.programs().kernel("noise_filters.cl", "mean3", options);
}

EnqueuedWork ImageNoiseFilter::enqueue(NoiseFilter filter, const cl::Buffer& src, ImageSize size,
                                       const cl::Buffer& dst) {
    checkDeviceBufferFits(cc_.info(), size, "the image to filter");
    if (src() == dst()) throw Error("3x3 filters need different source and output buffers");
    cl::Kernel& k = kernel(filter, size.width);
    setArgs(k, src, dst, size.width, size.height);
    const std::size_t strips = (static_cast<std::size_t>(size.width) + 3) / 4;
    const std::size_t bands = (static_cast<std::size_t>(size.height) + kRows - 1) / kRows;
    EnqueuedWork work;
    cc_.queue().enqueueNDRangeKernel(k, cl::NullRange,
                                     cl::NDRange(roundUp(strips, kGroupX), roundUp(bands, kGroupY)),
                                     cl::NDRange(kGroupX, kGroupY), nullptr, &work.last);
    work.first = work.last;
    return work;
}

}  // namespace clviz
