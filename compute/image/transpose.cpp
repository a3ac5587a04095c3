#include "compute/image/transpose.hpp"

#include "compute/core/compute_context.hpp"
#include "compute/core/program_cache.hpp"
#include "compute/core/set_args.hpp"

namespace clviz {

namespace {
constexpr std::size_t kTile = 32, kRows = 8;  // TILE and ROWS in kernels/transpose.cl
}

ImageTranspose::ImageTranspose(ComputeContext& cc)
    : cc_(cc), kernel_(cc.programs().kernel("transpose.cl", "transpose")) {}

EnqueuedWork ImageTranspose::enqueue(const cl::Buffer& src, ImageSize size, const cl::Buffer& dst) {
    checkDeviceBufferFits(cc_.info(), size, "the image to transpose");
    setArgs(kernel_, src, dst, size.width, size.height);
    EnqueuedWork work;
    const std::size_t tilesX = (size.width + kTile - 1) / kTile;
    const std::size_t tilesY = (size.height + kTile - 1) / kTile;
    cc_.queue().enqueueNDRangeKernel(kernel_, cl::NullRange,
                                     cl::NDRange(tilesX * kTile, tilesY * kRows),
                                     cl::NDRange(kTile, kRows), nullptr, &work.last);
    work.first = work.last;
    return work;
}

}  // namespace clviz
