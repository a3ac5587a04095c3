#include "compute/image_equalize.hpp"

#include "compute/compute_context.hpp"
#include "compute/program_cache.hpp"

namespace clviz {

ImageEqualize::ImageEqualize(ComputeContext& cc)
    : cc_(cc),
      histogram_(cc),
      lut_(cc.programs().kernel("equalize.cl", "equalize_lut")),
      apply_(cc.programs().kernel("equalize.cl", "equalize_apply")),
      bins_(cc.context(), CL_MEM_READ_WRITE, ImageHistogram::binsBytes()),
      lut_buffer_(cc.context(), CL_MEM_READ_WRITE, 3 * 256) {}

EnqueuedWork ImageEqualize::enqueue(const EqualizeParams& params, const cl::Buffer& src,
                                    ImageSize size, const cl::Buffer& dst) {
    checkDeviceBufferFits(cc_.info(), size, "the image to equalize");
    EnqueuedWork work;
    work.first = histogram_.enqueue(params.histogram, src, size, bins_).first;

    auto& queue = cc_.queue();
    lut_.setArg(0, bins_);
    lut_.setArg(1, params.mode == EqualizeMode::PerChannel ? 1 : 0);
    lut_.setArg(2, lut_buffer_);
    queue.enqueueNDRangeKernel(lut_, cl::NullRange, cl::NDRange(256), cl::NDRange(256));

    const std::size_t count = size.pixels();
    apply_.setArg(0, src);
    apply_.setArg(1, dst);
    apply_.setArg(2, static_cast<cl_uint>(count));
    apply_.setArg(3, lut_buffer_);
    queue.enqueueNDRangeKernel(apply_, cl::NullRange, cl::NDRange(roundUp(count, 256)),
                               cl::NDRange(256), nullptr, &work.last);
    return work;
}

}  // namespace clviz
