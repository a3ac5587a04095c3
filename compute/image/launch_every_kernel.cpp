#include "compute/image/launch_every_kernel.hpp"

#include <algorithm>

#include "compute/image/pipeline.hpp"

namespace clviz {

std::vector<std::string> launchEveryImageKernel(ImagePipeline& pipeline,
                                                const std::function<void(int, int)>& step) {
    Rgba8Image picture(256, 192);  // a gradient: every histogram bin range and rotate path used
    for (std::size_t i = 0; i < picture.pixels.size(); ++i)
        picture.pixels[i] = static_cast<std::uint8_t>((i * 7) ^ (i >> 9));
    pipeline.setSource(picture);

    std::vector<RotateVariant> rotations;
    for (int v = 0; v < kRotateVariantCount; ++v)
        if (pipeline.rotateAvailable(RotateVariant(v))) rotations.push_back(RotateVariant(v));
    const int runs = std::max<int>({int(rotations.size()), kHistogramVariantCount, 2});

    std::vector<std::string> labels;
    for (int r = 0; r < runs; ++r) {
        std::vector<FilterStep> steps = ImagePipeline::defaultSteps();
        for (FilterStep& s : steps) {
            s.enabled = true;
            s.rotate.degrees = 30;  // not 0: a rotate by nothing may be skipped
            if (!rotations.empty()) s.rotate.variant = rotations[r % rotations.size()];
            s.equalize.mode = r % 2 ? EqualizeMode::PerChannel : EqualizeMode::Luma;
            s.equalize.histogram = HistogramVariant(r % kHistogramVariantCount);
        }
        pipeline.steps() = steps;
        pipeline.histogramSettings().enabled = true;
        pipeline.histogramSettings().variant = HistogramVariant((r + 1) % kHistogramVariantCount);
        pipeline.run();
        for (const StepTiming& t : pipeline.timings())
            labels.push_back(t.label);
        if (step) step(r + 1, runs);
    }
    return labels;
}

}  // namespace clviz
