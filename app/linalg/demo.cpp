#include "app/linalg/demo.hpp"

#include <glad/gl.h>
// glad first: GLFW must not pull in the system GL header.
#include <GLFW/glfw3.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <memory>
#include <utility>

#include "common/error.hpp"
#include "compute/core/compute_context.hpp"
#include "compute/core/kernel_run_log.hpp"
#include "compute/interop/external_memory.hpp"
#include "compute/matrix_view/matrix_image.hpp"
#include "compute/roofline/ceiling_probes.hpp"  // kTf32CeilingName

namespace clviz {

namespace {

// The chosen kernel's run time above which the other variants are not timed at its shape.
constexpr double kMaxJobBudgetMs = 500;

bool sameShape(const GemmShape& x, const GemmShape& y) {
    return x.m == y.m && x.n == y.n && x.k == y.k && x.transA == y.transA && x.transB == y.transB;
}

double sizeOf(const GemmShape& s) {
    return std::cbrt(double(s.m) * s.n * s.k);
}

// The relative Frobenius error the reference check accepts: FP32 accumulation, or TF32 inputs
// (10-bit mantissa) on the tensor path.
double tolerance(bool tensorPath) {
    return tensorPath ? 1e-2 : 1e-4;
}

}  // namespace

std::unique_ptr<Demo> makeLinalgDemo() {
    return std::make_unique<LinalgDemo>();
}

LinalgDemo::LinalgDemo() = default;
LinalgDemo::~LinalgDemo() = default;

void LinalgDemo::init(const AppServices& app) {
    app_ = app;
    cc_ = app.compute;
    if (!cc_) throw Error("the linear-algebra lab needs an OpenCL context");
    InteropCaps caps = detectClInteropCaps(cc_->info().extensions);
    caps.clContextSharesGl = app.clContextSharesGl;
    detectGlInteropCaps(caps);
    probeExternalMemory(*cc_, caps);
    interop_ = chooseInteropPath(InteropRequest::Auto, caps);
    // The ceiling probes and the kernel builds take seconds on a cold cache: off the frame where
    // the app allows it, the first runs too (PoCL builds a kernel at its first launch).
    struct Made {
        DeviceCeilings ceilings;
        std::string probeError;  // why the probes failed ("" when they ran)
        std::unique_ptr<GemmLab> gemm;
        std::unique_ptr<ReduceLab> reduce;
        std::unique_ptr<MatrixImage> pictures;
    };
    auto made = std::make_shared<Made>();
    const bool offFrame = appWorksOffFrame(app_);
    job_.start(
        offFrame, "Starting the linear-algebra lab",
        [made, cc = cc_, controls = controls_, offFrame](JobProgress& progress) {
            const std::string what = "Starting the linear-algebra lab: ";
            // The selected variant and, when all are timed, each of the others.
            std::vector<GemmVariant> variants{controls.variant};
            if (controls.allVariants)
                for (int v = 0; v < kGemmVariantCount; ++v)
                    if (GemmVariant(v) != controls.variant) variants.push_back(GemmVariant(v));
            const int steps = offFrame ? 3 + int(variants.size()) : 1;
            progress.report(what + "measuring the device's ceilings", 1, steps);
            try {
                made->ceilings = measureDeviceCeilings(*cc);
            } catch (const Error& e) {
                made->probeError = e.what();
            }
            made->gemm = std::make_unique<GemmLab>(*cc);
            made->reduce = std::make_unique<ReduceLab>(*cc);
            made->pictures = std::make_unique<MatrixImage>(*cc);
            if (!offFrame) return;  // the first step runs them, after the --set settings
            // The first launches of what the first frames run (the selected variant, then one
            // other a frame): PoCL builds a kernel there, for seconds on a cold cache. The frames
            // run them again from the built kernels and report what fails.
            auto guarded = [](auto&& f) {
                try {
                    f();
                } catch (const Error&) {
                } catch (const cl::Error&) {
                }
            };
            guarded([&] { made->gemm->prepare(controls.shape); });
            int step = 2;
            for (const GemmVariant v : variants) {
                progress.report(what + "building kernels: GEMM " + gemmVariantInfo(v).id, step++,
                                steps);
                guarded([&] {
                    if (v == controls.variant)
                        made->gemm->run(v, controls.tuning);
                    else
                        made->gemm->time(v, controls.shape, GemmTuning{});
                });
            }
            progress.report(what + "building kernels: matrix_to_rgba", step++, steps);
            guarded([&] {
                const std::size_t count = made->gemm->hostA().size();
                const cl::Buffer scratch(cc->context(), CL_MEM_READ_WRITE, count * 4);
                made->pictures->colour(made->gemm->a(), count, 1.0f, scratch).wait();
            });
            progress.report(what + "building kernels: reduction", step++, steps);
            guarded([&] {
                made->reduce->setVariant(controls.reduceVariant);
                made->reduce->step();
            });
        },
        [this, made] {
            if (made->probeError.empty()) {
                ceilings_ = made->ceilings;
                std::printf("linalg lab: %s\n", ceilings_.summary().c_str());
            } else {  // the lab still runs; the roofline has no ceilings and says why
                ceilings_ = {};
                ceilings_.tensorNote = "the ceiling probes failed: " + made->probeError;
                app_.error("linalg lab: " + ceilings_.tensorNote);
            }
            std::fflush(stdout);
            gemm_ = std::move(made->gemm);
            reduce_ = std::move(made->reduce);
            pictures_ = std::move(made->pictures);
        });
}

void LinalgDemo::shutdown() {
    job_.cancel();  // waits for the step in progress
    if (lastRun_) {
        const GemmRun& r = *lastRun_;
        std::string err = "-";
        if (gemm_ && gemm_->error()) {
            char buf[64];
            std::snprintf(buf, sizeof buf, "%.3g", gemm_->error()->relFrobenius);
            err = buf;
        }
        std::printf("linalg lab: variant=%s %dx%dx%d%s%s %.3f ms %s rel-error=%s\n",
                    gemmVariantInfo(r.variant).id, r.shape.m, r.shape.n, r.shape.k,
                    r.shape.transA ? " trans-a" : "", r.shape.transB ? " trans-b" : "", r.ms,
                    formatFlopRate(r.gflops()).c_str(), err.c_str());
        // What else the roofline showed: the other demos' last runs in this process.
        std::string others;
        for (const auto& r : kernelRunLog().latest())
            others += (others.empty() ? "" : ", ") + r.feature + ": " + r.run.name;
        std::printf("linalg lab: roofline runs from other demos: %s\n",
                    others.empty() ? "none" : others.c_str());
        std::fflush(stdout);
    }
    if (cc_) cc_->finishQuietly();
    texA_ = {};
    texB_ = {};
    texC_ = {};
    texError_ = {};
    pictures_.reset();
    reduce_.reset();
    gemm_.reset();
}

// --- per frame -----------------------------------------------------------------------------

void LinalgDemo::publish(MatrixTexture& t, const cl::Buffer& values, int rows, int cols,
                         float scale, bool error) {
    const std::size_t count = std::size_t(rows) * std::size_t(cols);
    if (count > t.capacity) {
        t.rgba = cl::Buffer(cc_->context(), CL_MEM_READ_WRITE, count * 4);
        t.capacity = count;
    }
    const cl::Event done =
        error ? pictures_->error(values, gemm_->referenceBuffer(), count, scale, t.rgba)
              : pictures_->colour(values, count, scale, t.rgba);
    if (!t.texture)
        t.texture = std::make_unique<SharedTexture>(*cc_, interop_, cols, rows);
    else
        t.texture->resize(cols, rows);
    t.texture->copyFrom(t.rgba, {done});
    t.rows = rows;
    t.cols = cols;
}

void LinalgDemo::applyShape() {
    const GemmShape& s = controls_.shape;
    if (shapeDrawn_ && sameShape(s, shownShape_)) return;
    const int maxTexture = maxGlTextureSize();
    if (std::max({s.m, s.n, s.k}) > maxTexture)
        throw Error("a matrix side of " + std::to_string(std::max({s.m, s.n, s.k})) +
                    " is more than GL_MAX_TEXTURE_SIZE (" + std::to_string(maxTexture) + ")");
    gemm_->prepare(s);
    // Stored layouts: A is M x K (K x M transposed), B is K x N (N x K transposed).
    publish(texA_, gemm_->a(), s.transA ? s.k : s.m, s.transA ? s.m : s.k, 1.0f, false);
    publish(texB_, gemm_->b(), s.transB ? s.n : s.k, s.transB ? s.k : s.n, 1.0f, false);
    texError_.texture.reset();
    errorDrawn_ = false;
    shownShape_ = s;
    shapeDrawn_ = true;
    ++shapeGeneration_;
    byVariant_.clear();
    refusals_.clear();
    dirty_ = true;
    queueJobs();
}

void LinalgDemo::noteRun(const GemmRun& r) {
    if (sameShape(r.shape, controls_.shape)) byVariant_[int(r.variant)] = r;
    bySize_[gemmVariantInfo(r.variant).id][sizeOf(r.shape)] = r.gflops();
    refusals_.erase(int(r.variant));
}

void LinalgDemo::runSelected() {
    dirty_ = false;
    GemmRun r;
    try {
        r = gemm_->run(controls_.variant, controls_.tuning);
    } catch (const Error& e) {
        if (runError_ != e.what()) app_.error(std::string("linalg lab: ") + e.what());
        runError_ = e.what();
        refusals_[int(controls_.variant)] = e.what();
        return;
    }
    runError_.clear();
    lastRun_ = r;
    noteRun(r);
    // A rerun of the same kernel gives the same C: the picture is redrawn only when it changes.
    const std::string key = std::string(gemmVariantInfo(r.variant).id) + " " +
                            controls_.tuning.key() + " " + std::to_string(shapeGeneration_);
    if (key == drawnKey_) return;
    drawnKey_ = key;
    const GemmShape& s = controls_.shape;
    // C's elements have a spread of about sqrt(K)/3 (sums of K products of U(-1, 1) values):
    // +-sqrt(K) covers three of them.
    publish(texC_, gemm_->c(), s.m, s.n, float(std::sqrt(double(s.k))), false);
    errorDrawn_ = false;
}

void LinalgDemo::queueJobs() {
    jobs_.clear();
    skipNote_.clear();
    const GemmShape& s = controls_.shape;
    if (controls_.allVariants)
        for (int v = 0; v < kGemmVariantCount; ++v)
            if (GemmVariant(v) != controls_.variant) jobs_.push_back({GemmVariant(v), s});
    if (controls_.sweep)
        for (int side = 32; side < sizeOf(s) - 0.5; side *= 2)
            jobs_.push_back({controls_.variant, {side, side, side, s.transA, s.transB}});
}

void LinalgDemo::runOneJob() {
    if (jobs_.empty()) return;
    const auto [variant, shape] = jobs_.front();
    jobs_.pop_front();
    // Where the chosen kernel already takes over half a second at this shape (a large one on a
    // CPU device), the other variants, the naive one above all, would freeze the window for
    // longer: they are left out, and the panel says so.
    if (lastRun_ && lastRun_->ms > kMaxJobBudgetMs && variant != controls_.variant) {
        char why[128];
        std::snprintf(why, sizeof why,
                      "other variants not timed at this shape: %s takes %.0f ms a run here",
                      gemmVariantInfo(controls_.variant).id, lastRun_->ms);
        skipNote_ = why;
        return;
    }
    // Other variants run with their defaults: the tile rows are the selected variant's.
    const GemmTuning tuning = variant == controls_.variant ? controls_.tuning : GemmTuning{};
    try {
        noteRun(gemm_->time(variant, shape, tuning));
    } catch (const Error& e) {
        refusals_[int(variant)] = e.what();
    }
}

void LinalgDemo::step(const FrameInfo&) {
    if (!job_.finish(false)) return;  // the lab waits for its start; the frame goes on
    if (!gemm_) return;
    try {
        applyShape();
        if (controls_.continuous || dirty_) runSelected();
        if (controls_.errorOverlay && !errorDrawn_ && lastRun_ && runError_.empty() &&
            gemm_->reference() == GemmLab::Reference::Ready) {
            gemm_->compareIfReady();
            const double scale = gemm_->error() ? gemm_->error()->maxRef : 0.0;
            const GemmShape& s = controls_.shape;
            if (scale > 0) publish(texError_, gemm_->c(), s.m, s.n, float(scale), true);
            errorDrawn_ = true;
        }
        runOneJob();
        reduce_->setVariant(controls_.reduceVariant);
        reduce_->step();
    } catch (const Error& e) {
        if (runError_ != e.what()) app_.error(std::string("linalg lab: ") + e.what());
        runError_ = e.what();
    }
}

const SharedTexture* LinalgDemo::matrixTexture(char which) const {
    switch (which) {
        case 'A':
            return texA_.texture.get();
        case 'B':
            return texB_.texture.get();
        case 'C':
            return texC_.texture.get();
        case 'E':
            return texError_.texture.get();
        default:
            return nullptr;
    }
}

void LinalgDemo::draw(const FrameInfo&) {
    // The matrices are ImGui images (drawMatrices, in gui()): the scene is the cleared window.
}

std::vector<RooflineMark> LinalgDemo::rooflineMarks() const {
    std::vector<RooflineMark> marks;
    for (const auto& [v, run] : byVariant_) {
        RooflineMark m{"GEMM", run.point(), GemmVariant(v) == controls_.variant};
        if (run.tensorPath) {
            m.run.name += " (mma.sync)";
            m.run.ceiling = kTf32CeilingName;
        }
        marks.push_back(std::move(m));
    }
    // The largest reduction measured: the one nearest the bandwidth it can reach.
    if (reduce_) {
        const auto& points = reduce_->points();
        for (auto it = points.rbegin(); it != points.rend(); ++it)
            if (it->ms > 0 && it->checked) {
                marks.push_back({"reduction", it->point(reduce_->variant()), false});
                break;
            }
    }
    for (const auto& r : kernelRunLog().latest())
        marks.push_back({r.feature, r.run, false});
    return marks;
}

// --- input and commands ----------------------------------------------------------------------

bool LinalgDemo::onKey(int key, int) {
    auto apply = [&](const std::string& k, const std::string& v) {
        app_.attempt([&] { set(k, v); });
        return true;
    };
    const int variant = int(controls_.variant);
    switch (key) {
        case GLFW_KEY_RIGHT:
            return apply("variant",
                         gemmVariantInfo(GemmVariant((variant + 1) % kGemmVariantCount)).id);
        case GLFW_KEY_LEFT:
            return apply("variant", gemmVariantInfo(GemmVariant((variant + kGemmVariantCount - 1) %
                                                                kGemmVariantCount))
                                        .id);
        case GLFW_KEY_UP:
            return apply("size",
                         std::to_string(std::min(kLinalgMaxDimension, controls_.shape.m * 2)));
        case GLFW_KEY_DOWN:
            return apply("size", std::to_string(std::max(1, controls_.shape.m / 2)));
        case GLFW_KEY_E:
            return apply("error-overlay", controls_.errorOverlay ? "off" : "on");
        case GLFW_KEY_A:
            return apply("trans-a", controls_.shape.transA ? "off" : "on");
        case GLFW_KEY_B:
            return apply("trans-b", controls_.shape.transB ? "off" : "on");
        default:
            return false;
    }
}

std::vector<std::pair<std::string, std::string>> LinalgDemo::keyHelp() const {
    return {{"Left / Right", "previous / next GEMM variant"},
            {"Up / Down", "square size x2 / /2"},
            {"A / B", "transpose A / B"},
            {"E", "error overlay on / off"}};
}

void LinalgDemo::set(const std::string& key, const std::string& value) {
    job_.finish(true);  // a setting applies to the lab the start leads to
    const LinalgLabControls before = controls_;
    applyLinalgSetting(controls_, key, value);
    dirty_ = true;
    const bool tuningChanged = before.tuning.key() != controls_.tuning.key();
    if (before.variant != controls_.variant || tuningChanged ||
        before.allVariants != controls_.allVariants || before.sweep != controls_.sweep)
        queueJobs();
    if (tuningChanged) byVariant_.erase(int(controls_.variant));
}

void LinalgDemo::kernelsReloaded() {
    job_.finish(true);  // the job's kernels are replaced once it is done with them
    if (pictures_) pictures_->reloadKernels();
    if (gemm_) gemm_->kernelsChanged();
    drawnKey_.clear();
    dirty_ = true;
    errorDrawn_ = false;
}

Demo::ReferenceResult LinalgDemo::checkReference() {
    job_.finish(true);
    if (!gemm_) return {};
    try {
        applyShape();
        runSelected();
        if (!runError_.empty()) return {false, "GEMM: " + runError_};
        if (gemm_->waitForReference() != GemmLab::Reference::Ready)
            return {false, "GEMM vs CPU reference: none above 2048^3 multiply-adds"};
        gemm_->compareIfReady();
        const auto& e = gemm_->error();
        const double tol = tolerance(lastRun_->tensorPath);
        char buf[160];
        std::snprintf(buf, sizeof buf, "relative Frobenius error %.3g (tolerance %.0e)",
                      e ? e->relFrobenius : NAN, tol);
        const bool ok = e && e->finite && e->relFrobenius <= tol;
        return {ok, std::string("GEMM ") + gemmVariantInfo(controls_.variant).id +
                        " vs CPU reference: " + (ok ? "OK, " : "WRONG, ") + buf};
    } catch (const Error& e) {
        return {false, e.what()};
    }
}

}  // namespace clviz
