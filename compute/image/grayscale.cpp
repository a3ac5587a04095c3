#include "compute/image/grayscale.hpp"

#include <algorithm>

#include "compute/core/compute_context.hpp"
#include "compute/core/program_cache.hpp"
#include "compute/core/set_args.hpp"

namespace clviz {

ImageGrayscale::ImageGrayscale(ComputeContext& cc)
    : cc_(cc), kernel_(cc.programs().kernel("grayscale.cl", "grayscale")) {}

EnqueuedWork ImageGrayscale::enqueue(const cl::Buffer& src, ImageSize size, const cl::Buffer& dst) {
    checkDeviceBufferFits(cc_.info(), size, "the image to convert");
    const std::size_t count = size.pixels();
    setArgs(kernel_, src, dst, static_cast<cl_uint>(count));
    // One work-item per 4 pixels; the first count % 4 work-items also take a leftover pixel.
    const std::size_t items = std::max<std::size_t>(count / 4, count % 4);
    EnqueuedWork work;
    cc_.queue().enqueueNDRangeKernel(kernel_, cl::NullRange, cl::NDRange(roundUp(items, 256)),
                                     cl::NDRange(256), nullptr, &work.last);
    work.first = work.last;
    return work;
}

}  // namespace clviz
