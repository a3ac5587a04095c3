#include "compute/image_noise_filters.hpp"

#include "compute/compute_context.hpp"
#include "compute/error.hpp"
#include "compute/program_cache.hpp"

namespace clviz {

namespace {
constexpr std::size_t kGroupX = 32, kGroupY = 8;  // TX and TY in kernels/noise_filters.cl
}

ImageNoiseFilter::ImageNoiseFilter(ComputeContext& cc)
    : cc_(cc),
      mean_(cc.programs().kernel("noise_filters.cl", "mean3")),
      median_(cc.programs().kernel("noise_filters.cl", "median3")) {}

EnqueuedWork ImageNoiseFilter::enqueue(NoiseFilter filter, const cl::Buffer& src, ImageSize size,
                                       const cl::Buffer& dst) {
    checkDeviceBufferFits(cc_.info(), size, "the image to filter");
    if (src() == dst()) throw Error("3x3 filters need different source and output buffers");
    cl::Kernel& k = filter == NoiseFilter::Mean3 ? mean_ : median_;
    k.setArg(0, src);
    k.setArg(1, dst);
    k.setArg(2, size.width);
    k.setArg(3, size.height);
    EnqueuedWork work;
    cc_.queue().enqueueNDRangeKernel(
        k, cl::NullRange, cl::NDRange(roundUp(size.width, kGroupX), roundUp(size.height, kGroupY)),
        cl::NDRange(kGroupX, kGroupY), nullptr, &work.last);
    work.first = work.last;
    return work;
}

}  // namespace clviz
