#include "compute/image/reference_check.hpp"

#include <algorithm>
#include <cstdlib>

#include "common/error.hpp"
#include "compute/core/compute_context.hpp"
#include "compute/image/pipeline.hpp"
#include "compute/image/reference.hpp"

namespace clviz {

namespace {

Rgba8Image referenceOf(const FilterStep& s, const Rgba8Image& in) {
    switch (s.kind) {
        case FilterKind::Rotate:
            return reference::rotate(in, s.rotate);
        case FilterKind::Transpose:
            return reference::transpose(in);
        case FilterKind::Mean3:
            return reference::mean3(in);
        case FilterKind::Median3:
            return reference::median3(in);
        case FilterKind::Grayscale:
            return reference::grayscale(in);
        case FilterKind::Equalize:
            return reference::equalize(in, s.equalize.mode);
    }
    return in;
}

// The tolerance of the filter tests (tests/compute/image_*_test.cpp), -1: not comparable here.
int toleranceOf(const FilterStep& s, bool gpu) {
    if (s.kind != FilterKind::Rotate) return 0;
    switch (s.rotate.variant) {
        case RotateVariant::BufferBilinear:
            return 1;
        case RotateVariant::ImageBilinear:
            return gpu ? 3 : 1;
        case RotateVariant::Forward:
            return -1;  // write races: any of the source pixels landing there may win
        default:
            return 0;
    }
}

int maxDifference(const Rgba8Image& a, const Rgba8Image& b) {
    if (a.size() != b.size()) return 256;
    int worst = 0;
    for (std::size_t i = 0; i < a.pixels.size(); ++i)
        worst = std::max(worst, std::abs(int(a.pixels[i]) - int(b.pixels[i])));
    return worst;
}

}  // namespace

ReferenceCheck checkImageAgainstReference(ComputeContext& cc, const ImagePipeline& live,
                                          int maxSide) {
    if (!live.hasSource()) return {false, "image lab: no image loaded"};
    const ImageSize size = live.sourceSize();
    Rgba8Image img(std::min(size.width, maxSide), std::min(size.height, maxSide));
    const std::size_t x0 = static_cast<std::size_t>(size.width - img.width) / 2;
    const std::size_t y0 = static_cast<std::size_t>(size.height - img.height) / 2;
    const std::size_t pitch = static_cast<std::size_t>(size.width) * 4;
    cc.queue().enqueueReadBufferRect(
        live.sourceBuffer(), CL_TRUE, {x0 * 4, y0, 0}, {0, 0, 0},
        {static_cast<std::size_t>(img.width) * 4, static_cast<std::size_t>(img.height), 1}, pitch,
        0, static_cast<std::size_t>(img.width) * 4, 0, img.pixels.data());

    const std::string crop = std::to_string(img.width) + "x" + std::to_string(img.height);
    const bool gpu = cc.info().kind == DeviceKind::Gpu;
    ImagePipeline one(cc);
    one.histogramSettings().enabled = false;
    std::string checked, skipped, failed;
    for (const FilterStep& s : live.steps()) {
        if (!s.enabled) continue;
        FilterStep alone = s;
        one.steps() = {alone};
        one.setSource(img);
        one.run();
        Rgba8Image got = one.readResult();
        const int tolerance = toleranceOf(s, gpu);
        const std::string name = filterKindInfo(s.kind).id;
        if (tolerance < 0) {
            skipped += (skipped.empty() ? "" : ", ") + name;
        } else {
            const int diff = maxDifference(got, referenceOf(s, img));
            checked += (checked.empty() ? "" : ", ") + name;
            if (diff > tolerance)
                failed += (failed.empty() ? "" : "; ") + name + " differs by up to " +
                          std::to_string(diff) + " levels (tolerance " + std::to_string(tolerance) +
                          ")";
        }
        img = std::move(got);  // the next filter sees what the device made, as in the app
    }
    if (checked.empty() && skipped.empty()) return {true, "image lab: no filter is enabled"};
    ReferenceCheck r;
    r.ok = failed.empty();
    r.message = std::string("image lab vs CPU reference: ") +
                (r.ok ? "OK" : "MISMATCH: " + failed) + "; " + crop + " crop" +
                (checked.empty() ? "" : ", checked " + checked) +
                (skipped.empty() ? "" : ", not checked (write races): " + skipped);
    return r;
}

}  // namespace clviz
