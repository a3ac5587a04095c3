#include "app/image/demo.hpp"

#include <glad/gl.h>
// glad first: GLFW must not pull in the system GL header.
#include <GLFW/glfw3.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <memory>
#include <utility>

#include "app/image/assets.hpp"
#include "common/error.hpp"
#include "common/quoted_path.hpp"
#include "compute/core/cl_boundary.hpp"
#include "compute/core/compute_context.hpp"
#include "compute/image/launch_every_kernel.hpp"
#include "compute/image/pattern.hpp"
#include "compute/image/pipeline.hpp"
#include "compute/image/reference_check.hpp"
#include "compute/interop/external_memory.hpp"
#include "render/image/view.hpp"

namespace clviz {

namespace {

void copyToField(PathField& field, const std::string& text) {
    const std::size_t n = std::min(text.size(), field.size() - 1);
    std::memcpy(field.data(), text.data(), n);
    field[n] = '\0';
}

ImageTextureRef textureRef(const SharedTexture* t) {
    if (!t) return {};
    return {t->texture(), t->width(), t->height(), t->capacityWidth(), t->capacityHeight()};
}

// Keeps the spinning angle in (-180, 180] so the slider follows it.
double wrapDegrees(double d) {
    d = std::fmod(d, 360.0);
    if (d > 180.0) d -= 360.0;
    if (d <= -180.0) d += 360.0;
    return d;
}

}  // namespace

std::unique_ptr<Demo> makeImageDemo() {
    return std::make_unique<ImageDemo>();
}

ImageDemo::ImageDemo() = default;
ImageDemo::~ImageDemo() = default;

void ImageDemo::init(const AppServices& app) {
    app_ = app;
    cc_ = app.compute;
    if (!cc_) throw Error("the image lab needs an OpenCL context");
    glMaxTextureSize_ = maxGlTextureSize();
    view_ = std::make_unique<ImageView>();
    caps_ = detectClInteropCaps(cc_->info().extensions);
    caps_.clContextSharesGl = app.clContextSharesGl;
    detectGlInteropCaps(caps_);
    probeExternalMemory(*cc_, caps_);
    chooseInterop();
    copyToField(saveField_, "clviz-image.png");
    if (appWorksOffFrame(app_)) return startOffFrame();
    pipeline_ = std::make_unique<ImagePipeline>(*cc_);
    // The default image loads on the first step unless --image (set before it) picks another.
    pendingDefault_ = true;
}

// What init and the first step do inside the frame, on a worker thread: the default image
// decoded and the chain's first run on it (PoCL builds each kernel at its first launch). The
// frame that sees the job done takes the pipeline and shows the image (textures are GL's).
void ImageDemo::startOffFrame() {
    struct Made {
        std::unique_ptr<ImagePipeline> pipeline;
        DefaultImage image;
    };
    auto made = std::make_shared<Made>();
    job_.start(
        true, "Starting the image lab",
        [made, cc = cc_, limits = loadLimits(), controls = controls_](JobProgress& progress) {
            const std::string what = "Starting the image lab: ";
            progress.report(what + "decoding the default image");
            made->image = decodeDefaultImage(limits);
            made->pipeline = std::make_unique<ImagePipeline>(*cc);
            try {  // the frame runs the chain again from the built kernels, and says what fails
                // Every filter and variant once, so that turning one on later does not stall
                // a frame while PoCL compiles it (docs/benchmarks.md, "Frames during builds").
                launchEveryImageKernel(*made->pipeline, [&](int done, int total) {
                    progress.report(what + "building every filter's kernels", done, total);
                });
                // And the chain on the picture itself: PoCL compiles again for its launch sizes
                // (without this run the frame after the job stalled 0.7 s on a cold cache).
                progress.report(what + "running the filter chain");
                made->pipeline->steps() = controls.steps;
                made->pipeline->histogramSettings() = controls.histogram;
                made->pipeline->setSource(made->image.image);
                made->pipeline->run();
            } catch (const Error&) {
            } catch (const cl::Error&) {
            }
        },
        [this, made] {
            pipeline_ = std::move(made->pipeline);
            showDefault(std::move(made->image));
        });
}

void ImageDemo::shutdown() {
    job_.cancel();  // waits for the step in progress
    cancelLoad(true);
    if (summary_.runs() > 0) {
        const ImageSize size = resultSize();
        std::string sync = resultTexture_ ? resultTexture_->syncDescription() : "";
        if (sync.empty()) sync = "-";
        std::printf(
            "%s\n",
            summary_
                .line("image=" + std::to_string(size.width) + "x" + std::to_string(size.height) +
                      " filters=" + filterList(controls_.steps) + " interop=" +
                      interopPathName(resultTexture_ ? resultTexture_->path() : interop_.path) +
                      " sync=\"" + sync + "\"")
                .c_str());
        std::fflush(stdout);
    }
    if (cc_) cc_->finishQuietly();
    resultTexture_.reset();
    sourceTexture_.reset();
    view_.reset();
    pipeline_.reset();
}

ImageSize ImageDemo::sourceSize() const {
    return pipeline_ ? pipeline_->sourceSize() : ImageSize{};
}

ImageSize ImageDemo::resultSize() const {
    return resultTexture_ ? ImageSize{resultTexture_->width(), resultTexture_->height()}
                          : ImageSize{};
}

InteropPath ImageDemo::interopPath() const {
    return sourceTexture_ ? sourceTexture_->path() : interop_.path;
}

// --- loading -------------------------------------------------------------------------------

ImageLoadLimits ImageDemo::loadLimits() const {
    // The device's and GL's limits too, so that an image too large for them is refused from its
    // header, before it is decoded.
    ImageLoadLimits limits;
    limits.fit = deviceImageLimits(cc_->info());
    limits.fit.push_back(glTextureLimit(glMaxTextureSize_));
    return limits;
}

void ImageDemo::loadFile(const std::string& path) {
    if (path.empty()) throw Error("no file name given");
    cancelLoad(true);  // a command's image replaces one still loading
    showImage(loadImage(path, loadLimits()), path, "");
}

void ImageDemo::startLoad(const std::string& path) {
    if (path.empty()) {
        app_.error("no file name given");
        return;
    }
    cancelLoad(true);
    auto cancel = std::make_shared<std::atomic<bool>>(false);
    ImageLoadLimits limits = loadLimits();
    limits.cancel = cancel.get();
    // The worker owns copies of everything it reads; `cancel` outlives it (shared).
    auto result =
        std::async(std::launch::async, [path, limits, cancel] { return loadImage(path, limits); });
    loading_ = BackgroundLoad{path, cancel, std::move(result), std::chrono::steady_clock::now()};
}

void ImageDemo::pollLoad() {
    if (!loading_ ||
        loading_->result.wait_for(std::chrono::seconds(0)) != std::future_status::ready)
        return;
    BackgroundLoad done = std::move(*loading_);
    loading_.reset();
    try {
        showImage(done.result.get(), done.path, "");
        app_.notice("loaded " + quotedPath(done.path));
    } catch (const ImageLoadCancelled&) {
        app_.notice("cancelled loading " + quotedPath(done.path));
    } catch (const std::exception& e) {
        app_.error(e.what());
    }
}

// The worker stops at stb's next read once cancelled, so waiting for it is short.
void ImageDemo::cancelLoad(bool wait) {
    if (!loading_) return;
    loading_->cancel->store(true);
    if (!wait) return;  // pollLoad reports it when the worker has stopped
    loading_->result.wait();
    loading_.reset();
}

void ImageDemo::showImage(Rgba8Image image, const std::string& label, const std::string& note) {
    std::vector<ImageSizeLimit> limits = deviceImageLimits(cc_->info());
    limits.push_back(glTextureLimit(glMaxTextureSize_));
    if (auto problem = imageSizeProblem(image.size(), limits))
        throw Error("cannot use image " + quotedPath(label) + ": " + *problem);
    const bool hadImage = sourceTexture_ != nullptr;
    try {
        auto texture = std::make_unique<SharedTexture>(*cc_, interop_, image.width, image.height);
        texture->upload(image.pixels.data());
        if (texture->path() == InteropPath::GlSharing) {
            // CL reads the picture from the GL texture it shares; the pipeline keeps a copy.
            cl::Buffer staging = clBoundary("cannot stage the image on the device", [&] {
                return cl::Buffer(cc_->context(), CL_MEM_READ_WRITE, image.size().bytes());
            });
            texture->copyTo(staging);
            pipeline_->setSource(staging, image.size());
        } else {
            pipeline_->setSource(image);
        }
        reportFallback(*texture);
        sourceTexture_ = std::move(texture);
        resultTexture_.reset();  // sized for the new picture on the next run
    } catch (const Error& e) {
        throw Error("cannot use image " + quotedPath(label) + ": " + e.what());
    }
    source_ = std::move(image);
    imageLabel_ = label;
    imageNote_ = note;
    pendingDefault_ = false;
    hasResult_ = false;
    dirty_ = true;
    runError_.clear();
    if (hadImage) {  // a new picture starts fitted; the first keeps what --set asked for
        controls_.view.zoom = 1.0f;
        controls_.view.panX = controls_.view.panY = 0.0f;
    }
    if (label != "generated pattern") copyToField(pathField_, label);
}

ImageDemo::DefaultImage ImageDemo::decodeDefaultImage(const ImageLoadLimits& limits) {
    DefaultImage d;
    if (auto path = findAsset("default.png")) {
        try {
            d.image = loadImage(*path, limits);
            d.label = *path;
            return d;
        } catch (const Error& e) {
            d.note = std::string(e.what()) + "; showing a generated pattern instead";
        }
    } else {
        std::string looked;
        for (const auto& c : assetCandidates("default.png"))
            looked += (looked.empty() ? "" : ", ") + c;
        d.note = "the default image assets/default.png was not found (looked in " + looked +
                 "); showing a generated pattern instead";
    }
    d.image = makeTestPattern(kDefaultImageWidth, kDefaultImageHeight);
    d.label = "generated pattern";
    return d;
}

void ImageDemo::showDefault(DefaultImage d) {
    pendingDefault_ = false;
    if (d.note.empty()) {
        try {
            showImage(std::move(d.image), d.label, "");
            return;
        } catch (const Error& e) {
            d.note = std::string(e.what()) + "; showing a generated pattern instead";
        }
        d.image = makeTestPattern(kDefaultImageWidth, kDefaultImageHeight);
        d.label = "generated pattern";
    }
    app_.notice(d.note);
    showImage(std::move(d.image), d.label, d.note);
}

void ImageDemo::loadDefault() {
    cancelLoad(true);  // as loadFile did: the default replaces an image still loading
    showDefault(decodeDefaultImage(loadLimits()));
}

void ImageDemo::save(const std::string& path) {
    if (path.empty()) throw Error("no file name given");
    if (!pipeline_->hasSource()) throw Error("no image is loaded");
    if (!hasResult_ || dirty_) runChain();
    if (!runError_.empty()) throw Error("the filter chain cannot run: " + runError_);
    const Rgba8Image result = pipeline_->readResult();
    saveImage(path, result);
    app_.notice("saved the result (" + std::to_string(result.width) + "x" +
                std::to_string(result.height) + ") to " + path);
}

// --- interop -------------------------------------------------------------------------------

void ImageDemo::chooseInterop() {
    interop_ = chooseInteropPath(controls_.interop, caps_);
}

void ImageDemo::reportFallback(const SharedTexture& texture) {
    if (texture.fallbackReason().empty() || interop_.path == InteropPath::HostCopy) return;
    app_.error("image lab: " + texture.fallbackReason());
    // Later textures go straight to host copy instead of failing the same way again.
    interop_ = {InteropPath::HostCopy, texture.fallbackReason()};
}

void ImageDemo::recreateTextures() {
    chooseInterop();
    app_.notice("image lab interop: " + std::string(interopPathName(interop_.path)) + " (" +
                interop_.reason + ")");
    resultTexture_.reset();
    hasResult_ = false;
    dirty_ = true;
    if (!sourceTexture_) return;
    Rgba8Image image = source_;
    sourceTexture_.reset();
    showImage(std::move(image), imageLabel_, imageNote_);
}

// --- per frame -----------------------------------------------------------------------------

void ImageDemo::setRunError(const std::string& message) {
    if (message != runError_) app_.error("image lab: " + message);
    runError_ = message;
    dirty_ = false;  // retried after the next change (or every frame when continuous)
}

void ImageDemo::runChain() {
    if (!pipeline_->hasSource()) return;
    pipeline_->steps() = controls_.steps;
    pipeline_->histogramSettings() = controls_.histogram;
    const ImageSize out = pipeline_->outputSize();
    if (out.width > glMaxTextureSize_ || out.height > glMaxTextureSize_) {
        setRunError("the result would be " + std::to_string(out.width) + "x" +
                    std::to_string(out.height) + ", larger than GL_MAX_TEXTURE_SIZE (" +
                    std::to_string(glMaxTextureSize_) + ")");
        return;
    }
    try {
        pipeline_->run();
        const ImageSize size = pipeline_->resultSize();
        if (!resultTexture_) {
            // An expanding rotation changes the size with the angle: reserve up to the diagonal
            // (within reason) so spinning does not reallocate; resize() grows beyond that.
            int capacityW = size.width, capacityH = size.height;
            const FilterStep* rotate = findStep(controls_.steps, FilterKind::Rotate);
            if (rotate && rotate->enabled && rotate->rotate.fit == RotateFit::Expand) {
                const ImageSize src = pipeline_->sourceSize();
                const double diagonal = std::ceil(std::hypot(src.width, src.height));
                if (diagonal * diagonal * 4 <= 64.0 * 1024 * 1024)
                    capacityW = capacityH = std::max({int(diagonal), size.width, size.height});
            }
            resultTexture_ = std::make_unique<SharedTexture>(*cc_, interop_, size.width,
                                                             size.height, capacityW, capacityH);
            reportFallback(*resultTexture_);
        } else {
            const bool wasSharing = resultTexture_->path() == InteropPath::GlSharing;
            resultTexture_->resize(size.width, size.height);
            if (wasSharing && resultTexture_->path() != InteropPath::GlSharing)
                reportFallback(*resultTexture_);
        }
        const bool wasSharing = resultTexture_->path() == InteropPath::GlSharing;
        transfer_ = resultTexture_->copyFrom(pipeline_->result());
        if (wasSharing && resultTexture_->path() != InteropPath::GlSharing)
            reportFallback(*resultTexture_);
    } catch (const Error& e) {
        setRunError(e.what());
        return;
    }
    if (!runError_.empty()) app_.notice("image lab: the filter chain runs again");
    runError_.clear();
    hasResult_ = true;
    dirty_ = false;
    history_.push(static_cast<float>(pipeline_->totalMs()),
                  static_cast<float>(transfer_.deviceMs + transfer_.hostMs));
}

void ImageDemo::step(const FrameInfo& frame) {
    if (!job_.finish(false)) return;  // the lab waits for its start; the frame goes on
    if (pendingDefault_) loadDefault();
    pollLoad();
    if (controls_.spinDegreesPerSecond != 0) {
        if (FilterStep* r = findStep(controls_.steps, FilterKind::Rotate); r && r->enabled) {
            r->rotate.degrees =
                wrapDegrees(r->rotate.degrees + controls_.spinDegreesPerSecond * frame.dt);
            dirty_ = true;
        }
    }
    if (!(controls_.continuous || dirty_)) return;
    runChain();
    if (runError_.empty() && hasResult_)
        summary_.add(frame.dt * 1e3, pipeline_->totalMs(), transfer_.deviceMs, transfer_.hostMs);
}

void ImageDemo::updateLayout(int framebufferWidth, int framebufferHeight, bool useInsets) {
    framebufferWidth_ = framebufferWidth;
    framebufferHeight_ = framebufferHeight;
    const ImageSize src = sourceSize();
    const ImageSize res = hasResult_ ? resultSize() : src;
    PixelRect area{0, 0, float(framebufferWidth), float(framebufferHeight)};
    if (useInsets) {
        area.x0 += insetLeft_;
        area.x1 -= insetRight_;
        area.y0 += insetTop_;
        // Too little room left between the panels: use the whole window instead.
        if (area.width() < 0.25f * float(framebufferWidth)) {
            area.x0 = 0;
            area.x1 = float(framebufferWidth);
        }
    }
    layout_ = layoutImages(controls_.view, area, src.width, src.height, res.width, res.height);
}

void ImageDemo::draw(const FrameInfo& frame) {
    // This frame's gui() measured the panels; without it (GUI hidden) the images use it all.
    updateLayout(frame.framebufferWidth, frame.framebufferHeight, insetsFrame_ == frame.index);
    if (!sourceTexture_) return;
    view_->draw(layout_, controls_.view, textureRef(sourceTexture_.get()),
                hasResult_ ? textureRef(resultTexture_.get()) : ImageTextureRef{},
                frame.framebufferWidth, frame.framebufferHeight);
}

// --- input ---------------------------------------------------------------------------------

void ImageDemo::onPointer(const PointerEvent& e) {
    cursor_ = {e.x, e.y};
    switch (e.type) {
        case PointerEvent::Type::Press:
            // Where the press is decides: on the divider it moves it, elsewhere it pans.
            drag_ = controls_.view.mode == ImageViewMode::Split && nearDivider(layout_, e.x, 8.0f)
                        ? Drag::Divider
                        : Drag::Pan;
            break;
        case PointerEvent::Type::Release:
            drag_ = Drag::None;
            break;
        case PointerEvent::Type::Move:
            if (drag_ == Drag::None) break;  // hovering
            if (drag_ == Drag::Divider) {
                if (framebufferWidth_ > 0)
                    controls_.view.split = std::clamp(e.x / float(framebufferWidth_), 0.0f, 1.0f);
            } else {
                controls_.view.panX += e.dx;
                controls_.view.panY += e.dy;
            }
            break;
        case PointerEvent::Type::Scroll:
            zoomAt(controls_.view, layout_, static_cast<float>(std::pow(1.15, e.dy)), e.x, e.y);
            break;
    }
}

void ImageDemo::onDrop(const std::string& path) {
    startLoad(path);
}

bool ImageDemo::onKey(int key, int mods) {
    FilterStep* rotate = findStep(controls_.steps, FilterKind::Rotate);
    const double nudge = (mods & GLFW_MOD_SHIFT) ? 15.0 : 1.0;
    switch (key) {
        case GLFW_KEY_0:
            controls_.view.zoom = 1.0f;
            controls_.view.panX = controls_.view.panY = 0.0f;
            return true;
        case GLFW_KEY_1:
            controls_.view.zoom = actualSizeZoom(layout_);
            controls_.view.panX = controls_.view.panY = 0.0f;
            return true;
        case GLFW_KEY_M:
            controls_.view.mode = controls_.view.mode == ImageViewMode::Split
                                      ? ImageViewMode::SideBySide
                                      : ImageViewMode::Split;
            return true;
        case GLFW_KEY_N:
            controls_.view.magnification = controls_.view.magnification == Magnification::Nearest
                                               ? Magnification::Linear
                                               : Magnification::Nearest;
            return true;
        case GLFW_KEY_SPACE:
            controls_.spinDegreesPerSecond = controls_.spinDegreesPerSecond != 0 ? 0.0 : 30.0;
            if (rotate) rotate->enabled = true;
            dirty_ = true;
            return true;
        case GLFW_KEY_LEFT:
        case GLFW_KEY_RIGHT:
            if (!rotate) return false;
            rotate->enabled = true;
            rotate->rotate.degrees =
                wrapDegrees(rotate->rotate.degrees + (key == GLFW_KEY_LEFT ? nudge : -nudge));
            dirty_ = true;
            return true;
        case GLFW_KEY_R:
            if (!rotate) return false;
            rotate->rotate.degrees = 0;
            controls_.spinDegreesPerSecond = 0;
            dirty_ = true;
            return true;
        default:
            return false;
    }
}

std::vector<std::pair<std::string, std::string>> ImageDemo::keyHelp() const {
    return {{"Drag", "pan (on the split divider: move it)"},
            {"Scroll", "zoom about the cursor"},
            {"0 / 1", "fit / pixels 1:1"},
            {"M", "side by side / split view"},
            {"N", "nearest / linear magnification"},
            {"Left / Right", "rotate by 1 degree (Shift: 15)"},
            {"Space", "spin on / off"},
            {"R", "reset the angle"},
            {"Drop a file", "open it"}};
}

// --- command interface -----------------------------------------------------------------------

void ImageDemo::set(const std::string& key, const std::string& value) {
    job_.finish(true);  // a setting applies to the lab the start leads to
    if (key == "image") {
        loadFile(value);
        app_.notice("loaded " + quotedPath(value));
        return;
    }
    if (key == "save") return save(value);
    const InteropRequest interopBefore = controls_.interop;
    applyImageSetting(controls_, key, value);
    dirty_ = true;
    if (key == "interop" && controls_.interop != interopBefore) recreateTextures();
}

// ---- live reload (app/live_reload.hpp) ---------------------------------------------------------

void ImageDemo::kernelsReloaded() {
    job_.finish(true);  // the job's kernels are replaced once it is done with them
    if (!pipeline_) return;
    pipeline_->reloadKernels();  // the image, the chain and the view stay
    dirty_ = true;               // run the chain with the new kernels
}

void ImageDemo::shadersReloaded() {
    view_ = std::make_unique<ImageView>();  // a throw leaves the old one in place
}

Demo::ReferenceResult ImageDemo::checkReference() {
    job_.finish(true);
    if (!pipeline_) return {};
    const ReferenceCheck r = checkImageAgainstReference(*cc_, *pipeline_);
    return {r.ok, r.message};
}

}  // namespace clviz
