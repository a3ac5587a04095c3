#pragma once
// Plumbing shared by the image-lab filters: which device memory they take, how their timings are
// read, and the names the GUI shows for each kernel variant.
//
// Device memory convention: an image is a cl::Buffer of tightly packed RGBA8 pixels
// (ImageSize::bytes(), layout in image_io.hpp) starting at offset 0; the buffer may be larger.
// Only the image-object rotate variants also read a cl::Image2D (CL_RGBA / CL_UNORM_INT8, the
// format of a GL_RGBA8 texture). Every filter writes a cl::Buffer, so results reach GL the same
// way whatever the variant (SharedTexture::copyFrom).
#include <cstdint>
#include <string>

#include "common/parse.hpp"  // roundUp
#include "compute/core/cl.hpp"
#include "compute/image/image.hpp"

namespace clviz {

// Name and one-line description of a kernel variant, for combo boxes, tooltips and the bench.
struct VariantInfo {
    const char* id;           // stable, for CLI / --set / bench rows: "image-bilinear"
    const char* name;         // short label: "Image + sampler, bilinear"
    const char* description;  // one sentence for a tooltip
};

// The commands one filter enqueued, in order on the in-order queue. Its device time is the span
// from the first command's start to the last one's end (so multi-kernel filters include the gaps
// between their kernels, as a user would feel them).
struct EnqueuedWork {
    cl::Event first;
    cl::Event last;
    // Waits for `last`; needs a queue with CL_QUEUE_PROFILING_ENABLE.
    double milliseconds() const;
};

// Luma used by the histogram, grayscale and equalization: Rec. 709 weights on the stored
// (gamma-encoded) values, in 8.8 fixed point so the device and the CPU agree exactly.
// 54 + 183 + 19 = 256, so white stays 255.
constexpr int luma8(int r, int g, int b) {
    return (54 * r + 183 * g + 19 * b + 128) >> 8;
}

struct DeviceInfo;

// Throws clviz::Error unless `device` can hold an image of `size` in one buffer and the kernels
// can index it (fewer than 2^32 pixels, 32-bit counts). `what` names the image in the message
// ("the rotated image"). An empty image is refused too.
void checkDeviceBufferFits(const DeviceInfo& device, ImageSize size, const char* what);

}  // namespace clviz
