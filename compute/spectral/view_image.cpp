#include "compute/spectral/view_image.hpp"

#include "common/parse.hpp"
#include "compute/core/compute_context.hpp"
#include "compute/core/program_cache.hpp"
#include "compute/core/set_args.hpp"

namespace clviz {

SpectralPicture::SpectralPicture(ComputeContext& cc) : cc_(cc) {}

EnqueuedWork SpectralPicture::enqueue(const cl::Buffer& src, bool u8, int pixels,
                                      const std::array<ChannelStretch, 3>& ch,
                                      const cl::Buffer& out, std::size_t rowPitch) {
    cl::Kernel& k = kernels_[u8 ? 1 : 0];
    if (!k())
        k = cc_.programs().kernel("spectral_view.cl", "spectral_rgba",
                                  u8 ? "-DIN_T=uchar" : "-DIN_T=float");
    cl_float4 lo{}, scale{};
    for (int c = 0; c < 3; ++c) {
        lo.s[c] = ch[c].lo;
        const float span = ch[c].hi - ch[c].lo;
        scale.s[c] = span > 0 ? 1.0f / span : 0.0f;
    }
    setArgs(k, src, out, cl_int(pixels), cl_int(rowPitch ? rowPitch : pixels), cl_int(ch[0].row),
            cl_int(ch[1].row), cl_int(ch[2].row), lo, scale);
    EnqueuedWork work;
    cc_.queue().enqueueNDRangeKernel(k, cl::NullRange,
                                     cl::NDRange(roundUp(std::size_t(pixels), 256)),
                                     cl::NDRange(256), nullptr, &work.last);
    work.first = work.last;
    return work;
}

}  // namespace clviz
