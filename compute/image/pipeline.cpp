#include "compute/image/pipeline.hpp"

#include <algorithm>
#include <cmath>
#include <optional>

#include "common/error.hpp"
#include "compute/core/cl_boundary.hpp"
#include "compute/core/compute_context.hpp"
#include "compute/core/kernel_run_log.hpp"

namespace clviz {

namespace {

constexpr VariantInfo kFilterKinds[kFilterKindCount] = {
    {"rotate", "Rotate", "Rotates about the centre by any angle; pick the kernel variant."},
    {"transpose", "Transpose", "Swaps rows and columns through local-memory tiles."},
    {"mean3", "Mean 3x3", "Averages each pixel with its 8 neighbours (box blur)."},
    {"median3", "Median 3x3",
     "Takes the median of each pixel and its 8 neighbours, per channel: removes salt-and-pepper "
     "noise, keeps edges."},
    {"grayscale", "Grayscale", "Replaces R, G and B by the luma (Rec. 709 weights)."},
    {"equalize", "Equalize", "Spreads the values over the full range using the histogram."},
};

std::string histogramLabel(HistogramVariant v) {
    return std::string("histogram (") + histogramVariantInfo(v).name + ")";
}

std::string stepLabel(const FilterStep& step) {
    switch (step.kind) {
        case FilterKind::Rotate:
            return std::string("rotate (") + rotateVariantInfo(step.rotate.variant).name + ")";
        case FilterKind::Equalize:
            return std::string("equalize (") +
                   (step.equalize.mode == EqualizeMode::Luma ? "luma" : "per channel") + ", " +
                   histogramVariantInfo(step.equalize.histogram).name + ")";
        default:
            return filterKindInfo(step.kind).name;
    }
}

ImageSize stepOutputSize(const FilterStep& step, ImageSize in) {
    switch (step.kind) {
        case FilterKind::Rotate:
            return rotatedSize(in, step.rotate.degrees, step.rotate.fit);
        case FilterKind::Transpose:
            return {in.height, in.width};
        default:
            return in;
    }
}

}  // namespace

const VariantInfo& filterKindInfo(FilterKind kind) {
    return kFilterKinds[static_cast<int>(kind)];
}

// Filters are built on first use: each builds an OpenCL program, slow on some drivers.
struct ImagePipeline::Impl {
    explicit Impl(ComputeContext& c) : cc(c) {}
    ComputeContext& cc;
    std::optional<ImageRotate> rotate;
    std::optional<ImageTranspose> transpose;
    std::optional<ImageNoiseFilter> noise;
    std::optional<ImageGrayscale> grayscale;
    std::optional<ImageEqualize> equalize;
    std::optional<ImageHistogram> histogram;

    ImageRotate& rotator() { return rotate ? *rotate : rotate.emplace(cc); }
    ImageTranspose& transposer() { return transpose ? *transpose : transpose.emplace(cc); }
    ImageNoiseFilter& noiseFilter() { return noise ? *noise : noise.emplace(cc); }
    ImageGrayscale& gray() { return grayscale ? *grayscale : grayscale.emplace(cc); }
    ImageEqualize& equalizer() { return equalize ? *equalize : equalize.emplace(cc); }
    ImageHistogram& histogrammer() { return histogram ? *histogram : histogram.emplace(cc); }

    cl::Buffer ping[2];
    std::size_t pingBytes = 0;
    cl::Buffer result;

    // The source as an image, for an image variant that is the first enabled step.
    cl::Image2D sourceImage;
    bool sourceImageCurrent = false;
    // Input of an image variant later in the chain.
    cl::Image2D scratchImage;
    ImageSize scratchSize;

    cl::Buffer histogramBins;

    struct Pending {
        std::string label;
        EnqueuedWork work;
        std::size_t bytes = 0;  // pixels read + written by the step (0: not counted)
    };

    std::size_t checkChain(const std::vector<FilterStep>& steps, ImageSize source);
    void ensurePingBuffers(std::size_t bytes);
    // coverage: the last rotate, while the steps since kept its pixels in place (equalize
    // leaves its fill out of the counts, as the histogram does).
    EnqueuedWork enqueueStep(const FilterStep& step, const cl::Buffer& in, ImageSize inSize,
                             const cl::Buffer& out, bool first, std::vector<Pending>& pending,
                             const std::optional<RotateGeometry>& coverage);
    cl::Image2D& rotateInputImage(const cl::Buffer& in, ImageSize inSize, bool first,
                                  std::vector<Pending>& pending);
};

// Checks every step before anything is enqueued, so a failure leaves the last result intact.
// Returns the largest intermediate image in bytes.
std::size_t ImagePipeline::Impl::checkChain(const std::vector<FilterStep>& steps,
                                            ImageSize source) {
    ImageSize size = source;
    std::size_t largest = 0;
    for (const auto& step : steps) {
        if (!step.enabled) continue;
        if (step.kind == FilterKind::Rotate) {
            std::string why;
            if (!rotator().available(step.rotate.variant, size, &why))
                throw Error(std::string("rotate variant '") +
                            rotateVariantInfo(step.rotate.variant).name +
                            "' is unavailable: " + why);
        }
        size = stepOutputSize(step, size);
        checkDeviceBufferFits(cc.info(), size,
                              (std::string("the output of ") + stepLabel(step)).c_str());
        largest = std::max(largest, size.bytes());
    }
    return largest;
}

void ImagePipeline::Impl::ensurePingBuffers(std::size_t bytes) {
    if (bytes <= pingBytes) return;
    ping[0] = ping[1] = cl::Buffer();
    ping[0] = cl::Buffer(cc.context(), CL_MEM_READ_WRITE, bytes);
    ping[1] = cl::Buffer(cc.context(), CL_MEM_READ_WRITE, bytes);
    pingBytes = bytes;
}

// The image an image-object rotate reads: the source's (copied once per source) when rotate is
// the first step, else a scratch image the previous step's output is copied into.
cl::Image2D& ImagePipeline::Impl::rotateInputImage(const cl::Buffer& in, ImageSize inSize,
                                                   bool first, std::vector<Pending>& pending) {
    cl::Image2D* image = nullptr;
    const char* copyLabel = "copy to image for rotate";
    if (first) {
        image = &sourceImage;
        if (!sourceImageCurrent) {
            sourceImage = rotator().createSourceImage(inSize);
            copyLabel = "copy source to image (once per source)";
        } else {
            copyLabel = nullptr;
        }
    } else {
        if (!(scratchSize == inSize)) {
            scratchImage = rotator().createSourceImage(inSize);
            scratchSize = inSize;
        }
        image = &scratchImage;
    }
    if (copyLabel) {
        EnqueuedWork copy;
        cc.queue().enqueueCopyBufferToImage(
            in, *image, 0, {0, 0, 0}, {std::size_t(inSize.width), std::size_t(inSize.height), 1},
            nullptr, &copy.last);
        copy.first = copy.last;
        pending.push_back({copyLabel, copy});
        if (first) sourceImageCurrent = true;
    }
    return *image;
}

EnqueuedWork ImagePipeline::Impl::enqueueStep(const FilterStep& step, const cl::Buffer& in,
                                              ImageSize inSize, const cl::Buffer& out, bool first,
                                              std::vector<Pending>& pending,
                                              const std::optional<RotateGeometry>& coverage) {
    switch (step.kind) {
        case FilterKind::Rotate:
            // A whole turn is the picture itself: a copy, not a bilinear pass over every pixel
            // (the default chain's 0 degrees took 127 ms a frame for a 2048x1536 photo on a CPU).
            if (std::fmod(step.rotate.degrees, 360.0) == 0.0) {
                EnqueuedWork copy;
                cc.queue().enqueueCopyBuffer(in, out, 0, 0, inSize.bytes(), nullptr, &copy.last);
                copy.first = copy.last;
                return copy;
            }
            if (rotateVariantUsesImages(step.rotate.variant))
                return rotator().enqueue(step.rotate, rotateInputImage(in, inSize, first, pending),
                                         out);
            return rotator().enqueue(step.rotate, in, inSize, out);
        case FilterKind::Transpose:
            return transposer().enqueue(in, inSize, out);
        case FilterKind::Mean3:
            return noiseFilter().enqueue(NoiseFilter::Mean3, in, inSize, out);
        case FilterKind::Median3:
            return noiseFilter().enqueue(NoiseFilter::Median3, in, inSize, out);
        case FilterKind::Grayscale:
            return gray().enqueue(in, inSize, out);
        case FilterKind::Equalize:
            return equalizer().enqueue(step.equalize, in, inSize, out, coverage);
    }
    throw Error("unknown filter step");
}

ImagePipeline::ImagePipeline(ComputeContext& cc)
    : cc_(cc), impl_(std::make_unique<Impl>(cc)), steps_(defaultSteps()) {}

ImagePipeline::~ImagePipeline() = default;

void ImagePipeline::reloadKernels() {
    impl_->rotate.reset();
    impl_->transpose.reset();
    impl_->noise.reset();
    impl_->grayscale.reset();
    impl_->equalize.reset();
    impl_->histogram.reset();
}

std::vector<FilterStep> ImagePipeline::defaultSteps() {
    std::vector<FilterStep> steps;
    for (int k = 0; k < kFilterKindCount; ++k) {
        FilterStep s;
        s.kind = static_cast<FilterKind>(k);
        s.enabled = s.kind == FilterKind::Rotate;
        steps.push_back(s);
    }
    return steps;
}

// The filters are built on first use (rotator() here): their OpenCL failures are converted too.
bool ImagePipeline::imagesSupported() const {
    return clBoundary("cannot set up the rotate filter", [&] {
        return impl_->rotator().available(RotateVariant::ImageBilinear, {1, 1});
    });
}

bool ImagePipeline::rotateAvailable(RotateVariant variant, std::string* why) const {
    return clBoundary("cannot set up the rotate filter", [&] {
        return impl_->rotator().available(variant, hasSource() ? sourceSize_ : ImageSize{1, 1},
                                          why);
    });
}

void ImagePipeline::setSource(const Rgba8Image& image) {
    checkDeviceBufferFits(cc_.info(), image.size(), "the image");
    if (image.pixels.size() != image.size().bytes())
        throw Error("the image's pixel buffer does not match its size");
    clBoundary("cannot upload the image to the device", [&] {
        cl::Buffer buffer(cc_.context(), CL_MEM_READ_WRITE, image.size().bytes());
        cc_.queue().enqueueWriteBuffer(buffer, CL_TRUE, 0, image.size().bytes(),
                                       image.pixels.data());
        source_ = buffer;
    });
    sourceSize_ = image.size();
    impl_->sourceImageCurrent = false;
}

void ImagePipeline::setSource(const cl::Buffer& pixels, ImageSize size) {
    checkDeviceBufferFits(cc_.info(), size, "the image");
    clBoundary("cannot copy the image on the device", [&] {
        cl::Buffer buffer(cc_.context(), CL_MEM_READ_WRITE, size.bytes());
        cc_.queue().enqueueCopyBuffer(pixels, buffer, 0, 0, size.bytes());
        cc_.queue().finish();
        source_ = buffer;
    });
    sourceSize_ = size;
    impl_->sourceImageCurrent = false;
}

ImageSize ImagePipeline::outputSize() const {
    if (!hasSource()) return {};
    ImageSize size = sourceSize_;
    for (const auto& step : steps_)
        if (step.enabled) size = stepOutputSize(step, size);
    return size;
}

const cl::Buffer& ImagePipeline::result() const {
    return impl_->result() ? impl_->result : source_;
}

double ImagePipeline::totalMs() const {
    double sum = 0;
    for (const auto& t : timings_)
        sum += t.ms;
    return sum;
}

Rgba8Image ImagePipeline::readResult() {
    Rgba8Image image(resultSize_.width, resultSize_.height);
    if (image.empty()) throw Error("there is no result yet: load an image and run the chain");
    clBoundary("cannot read the result back from the device", [&] {
        cc_.queue().enqueueReadBuffer(result(), CL_TRUE, 0, resultSize_.bytes(),
                                      image.pixels.data());
    });
    return image;
}

std::array<std::uint8_t, 4> ImagePipeline::resultPixel(int x, int y) {
    if (x < 0 || y < 0 || x >= resultSize_.width || y >= resultSize_.height)
        throw Error("pixel (" + std::to_string(x) + ", " + std::to_string(y) +
                    ") is outside the result");
    std::array<std::uint8_t, 4> p{};
    clBoundary("cannot read a pixel of the result", [&] {
        cc_.queue().enqueueReadBuffer(result(), CL_TRUE,
                                      4 * (std::size_t(y) * resultSize_.width + x), 4, p.data());
    });
    return p;
}

void ImagePipeline::run() {
    if (!hasSource()) throw Error("no image loaded");
    Impl& m = *impl_;
    const std::size_t largest = clBoundary("cannot set up the image filter chain",
                                           [&] { return m.checkChain(steps_, sourceSize_); });

    std::vector<Impl::Pending> pending;
    cl::Buffer current = source_;
    ImageSize currentSize = sourceSize_;
    std::optional<Histogram> histogram;
    // The last rotate, while every step after it keeps the pixels where they are: the result's
    // histogram then leaves the rotate's fill out (HistogramTuning::coverage).
    std::optional<RotateGeometry> coverage;
    try {
        m.ensurePingBuffers(largest);
        int next = 0;
        bool first = true;
        for (const auto& step : steps_) {
            if (!step.enabled) continue;
            const cl::Buffer& out = m.ping[next];
            const EnqueuedWork work =
                m.enqueueStep(step, current, currentSize, out, first, pending, coverage);
            const ImageSize outSize = stepOutputSize(step, currentSize);
            if (step.kind == FilterKind::Rotate)
                coverage = rotateGeometry(currentSize, step.rotate.degrees, step.rotate.fit);
            else if (outSize != currentSize || step.kind == FilterKind::Transpose)
                coverage.reset();
            // Helper copies the step enqueued (pending so far) keep bytes 0: not counted.
            pending.push_back({stepLabel(step), work, currentSize.bytes() + outSize.bytes()});
            current = out;
            currentSize = outSize;
            next ^= 1;
            first = false;
        }
        if (histogramSettings_.enabled) {
            if (!m.histogramBins())
                m.histogramBins =
                    cl::Buffer(cc_.context(), CL_MEM_READ_WRITE, ImageHistogram::binsBytes());
            const bool ofSource = histogramSettings_.of == HistogramOf::Source;
            HistogramTuning tuning;
            if (!ofSource) tuning.coverage = coverage;
            EnqueuedWork work = m.histogrammer().enqueue(
                histogramSettings_.variant, ofSource ? source_ : current,
                ofSource ? sourceSize_ : currentSize, m.histogramBins, tuning);
            const ImageSize histogrammed = ofSource ? sourceSize_ : currentSize;
            pending.push_back({histogramLabel(histogramSettings_.variant), work,
                               histogrammed.bytes() + ImageHistogram::binsBytes()});
            histogram.emplace();
            cc_.queue().enqueueReadBuffer(m.histogramBins, CL_FALSE, 0, ImageHistogram::binsBytes(),
                                          histogram->bins.data());
        }
        cc_.queue().finish();
    } catch (const cl::Error& e) {
        m.sourceImageCurrent = false;
        throwClError("the image filter chain failed", e);
    }

    timings_.clear();
    for (const auto& p : pending) {
        timings_.push_back({p.label, p.work.milliseconds()});
        // For the linear-algebra lab's roofline: the filters count no flops, only the pixels
        // they read and write (RGBA8), so they show as bandwidth.
        if (p.bytes)
            kernelRunLog().record("image lab",
                                  {p.label, 0, double(p.bytes), timings_.back().ms * 1e-3,
                                   "bytes: RGBA8 pixels read + written, no flops counted"});
    }
    m.result = current;
    resultSize_ = currentSize;
    histogram_ = std::move(histogram);
}

}  // namespace clviz
