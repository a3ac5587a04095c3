#pragma once
// How large an image clviz loads, shows and processes: its own bounds on a file and a decode,
// the limits a device and GL put on the image lab, and the message when an image breaks one.
// No OpenCL or GL calls here (the GUI passes GL's value in; the device comes as a DeviceInfo).
#include <atomic>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "compute/image/image.hpp"

namespace clviz {

struct DeviceInfo;

// One size constraint an image must meet to be shown or processed.
struct ImageSizeLimit {
    int maxWidth = 0;  // 0: no limit on this side
    int maxHeight = 0;
    std::uint64_t maxBytes = 0;  // RGBA8 bytes; 0: no limit
    std::string what;            // "GL_MAX_TEXTURE_SIZE (16384)", used in the message
};

// Loading is bounded: the file's type and size are checked before it is read (regular files
// only), the header's dimensions against these limits before any pixel is decoded (a
// decompression bomb costs nothing), a PNG's inflated data against the size its header implies
// (png_inflate_budget.hpp), a JPEG's scan count (kMaxJpegScans), and every decoder loop advances
// through the bytes or fails. Peak memory of a load is at most about 3x the RGBA8 size (stb's
// working buffers) plus the file; a progressive JPEG adds stb's 16-bit coefficients, 2 bytes a
// pixel per component (HostileImagesRound2.PeakMemoryOfValidLoadsIsWhatImageLimitsPromises
// measures a PNG and a greyscale progressive JPEG in a child process; the bombs of issue 28 too).
struct ImageLoadLimits {
    int maxEdge = 32768;  // pixels, either side
    // 2^27 pixels (16384 x 8192, 512 MiB of RGBA8): the lab keeps about six pictures of that size
    // (source, result, ping-pong buffers, textures). At 2^28 a 16000 x 16000 PNG loaded on PoCL
    // in 117 s and 5 GiB, and each frame took seconds: refused from its header instead.
    std::uint64_t maxPixels = 1ull << 27;
    // The largest allowed image as 16-bit RGBA PNM (1 GiB) plus room for headers and row padding.
    std::uint64_t maxFileBytes = 1280ull << 20;
    std::vector<ImageSizeLimit> fit;  // the caller's own limits (device, GL), checked up front
    // Set from another thread to stop a load: stb then sees the end of its input at its next
    // read (at the latest after the scan or chunk it is decoding) and the load throws
    // ImageLoadCancelled. Null: not cancellable.
    const std::atomic<bool>* cancel = nullptr;
};

// The limit an OpenCL device puts on the image lab: its largest buffer allocation
// (CL_DEVICE_MAX_MEM_ALLOC_SIZE). CL_DEVICE_IMAGE2D_MAX_WIDTH/HEIGHT is not one: only the
// image-object rotate variants need an image2d, and they say so when an image is too large for
// them (ImageRotate::available); every other filter works on buffers.
std::vector<ImageSizeLimit> deviceImageLimits(const DeviceInfo& device);

// GL_MAX_TEXTURE_SIZE as a limit (the GUI queries the value from GL).
ImageSizeLimit glTextureLimit(int glMaxTextureSize);

// Why an image of `size` breaks one of `limits` ("image is 20000 x 300 pixels, wider than
// GL_MAX_TEXTURE_SIZE (16384)"), or nothing when it fits.
std::optional<std::string> imageSizeProblem(ImageSize size,
                                            const std::vector<ImageSizeLimit>& limits);

// Throws clviz::Error with imageSizeProblem's message when the image does not fit.
void checkImageSize(ImageSize size, const std::vector<ImageSizeLimit>& limits);

}  // namespace clviz
