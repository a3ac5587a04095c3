// libFuzzer target for the image-loading entry point: any bytes must either decode to a
// consistent RGBA8 image or raise clviz::Error, never crash, hang (libFuzzer's -timeout) or
// allocate without bound (-rss_limit_mb). Built once per decoder path by run_fuzz.sh:
// CLVIZ_FUZZ_FORMAT names the format (e.g. Png) and inputs of other formats are skipped, so each
// target spends its whole budget inside one decoder; without it every input is tried.
#include <cstddef>
#include <cstdint>
#include <cstdlib>

#include "common/error.hpp"
#include "compute/image/io/format_checks.hpp"
#include "compute/image/io/image_io.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
#ifdef CLVIZ_FUZZ_FORMAT
    if (clviz::sniffImageFormat({data, size}) != clviz::ImageFormat::CLVIZ_FUZZ_FORMAT) return -1;
#endif
    // Small limits keep each input fast and the memory bounded; the checks are the same.
    clviz::ImageLoadLimits limits;
    limits.maxEdge = 2048;
    limits.maxPixels = 1u << 20;
    try {
        const clviz::Rgba8Image img =
            clviz::loadImageFromMemory({data, size}, "fuzz input", limits);
        if (img.width <= 0 || img.height <= 0 || img.width > limits.maxEdge ||
            img.height > limits.maxEdge ||
            img.pixels.size() != std::size_t(img.width) * std::size_t(img.height) * 4)
            std::abort();  // a decoded image must be consistent
        // Touch every byte so out-of-bounds or uninitialised pixels show up under the sanitizers.
        unsigned sum = 0;
        for (std::uint8_t b : img.pixels)
            sum += b;
        volatile unsigned sink = sum;
        (void)sink;
    } catch (const clviz::Error&) {
        // Rejected with a message: the expected outcome for most inputs.
    }
    return 0;
}
