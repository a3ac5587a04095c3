// SpectralDemo's work off the frame (issue 30): a file's load and first MNF, and the MNF steps a
// change made stale, as the lab's job (DemoJob) while the frames show the previous result; the
// same steps inside the frame (compute(), demo.cpp) without the app's leave. The start's job
// (startOffFrame, demo.cpp) is startCubeJob with the generated scene.
#include <algorithm>
#include <array>
#include <memory>
#include <utility>

#include "app/spectral/cube_controls.hpp"
#include "app/spectral/demo.hpp"
#include "common/error.hpp"
#include "compute/core/cl_boundary.hpp"
#include "compute/core/compute_context.hpp"
#include "compute/spectral/io/envi_file.hpp"
#include "compute/spectral/mnf.hpp"
#include "compute/spectral/reference.hpp"
#include "compute/spectral/view_image.hpp"

namespace clviz {

// A file's cube the same way, with its first MNF (the settings of the job's start; a change while
// it runs makes the steps it touches stale again). The lab keeps the old cube on screen, and
// keeps it when the file cannot be used (an error notice says why).
void SpectralDemo::startLoad(const std::string& path) {
    startCubeJob(JobKind::Load, path, [path] { return readEnvi(path); });
}

void SpectralDemo::startCubeJob(JobKind kind, const std::string& label,
                                std::function<EnviCube()> source) {
    struct Made {
        std::unique_ptr<SpectralMnf> mnf;
        std::unique_ptr<SpectralPicture> picture;
        EnviCube scene;
        std::string uploadError;  // the cube could not go to the device
        bool computed = false;    // the first MNF ran (else a recompute runs it and reports)
        Steps steps;              // the settings it ran with
    };
    auto made = std::make_shared<Made>();
    ComputeContext* cc = cc_;
    SpectralControls controls = controls_;
    const bool starting = kind == JobKind::Start;
    const int maxTexture = glMaxTextureSize_;
    jobKind_ = kind;
    job_.start(
        true, starting ? "Starting the spectral lab" : "Loading " + label,
        [made, cc, controls, starting, maxTexture, label,
         source = std::move(source)](JobProgress& progress) mutable {
            const std::string what =
                starting ? "Starting the spectral lab: " : "Loading " + label + ": ";
            const int kSteps = starting ? 6 : 5;
            progress.report(
                what + (starting ? "generating the 145 x 145 x 200 scene" : "reading the file"), 1,
                kSteps);
            made->scene = source();
            const CubeShape shape = made->scene.cube.shape;
            if (!starting) checkFitsTexture(shape, label, maxTexture);
            progress.report(what + "uploading the cube", 2, kSteps);
            made->mnf = std::make_unique<SpectralMnf>(*cc);
            if (starting) made->picture = std::make_unique<SpectralPicture>(*cc);
            try {
                made->mnf->upload(made->scene.cube);
            } catch (const Error& e) {
                if (!starting) throw Error("cannot use '" + label + "': " + e.what());
                made->uploadError = e.what();
                return;
            }
            fitControlsToCube(controls, made->scene.header, shape);
            Steps& s = made->steps;
            s.stats = s.transform = s.denoise = true;
            s.noise = controls.noise;
            s.noiseRect = controls.noiseRect;
            s.m = componentsOf(controls, shape);
            s.k = keepOf(controls, shape);
            s.vectors = std::max(s.m, s.k);
            s.bands = shownBandsOf(controls, shape);
            try {
                progress.report(what + "building kernels and computing the MNF statistics", 3,
                                kSteps);
                made->mnf->run(s.noise, s.noiseRect, s.vectors);
                progress.report(what + "computing the MNF components", 4, kSteps);
                made->mnf->transform(s.m);
                progress.report(what + "denoising", 5, kSteps);
                made->mnf->denoise(s.k, s.bands);
                made->computed = true;
            } catch (const Error&) {
                return;  // a recompute on the frame's turn runs it again and reports why
            }
            if (!starting) return;  // the picture kernels were built by the start
            progress.report(what + "building kernels: spectral_rgba", 6, kSteps);
            const int P = int(shape.pixels());
            const cl::Buffer scratch = clBoundary("cannot allocate the picture buffer", [&] {
                return cl::Buffer(cc->context(), CL_MEM_READ_WRITE, std::size_t(P) * 4);
            });
            const std::array<ChannelStretch, 3> grey{
                ChannelStretch{0, 0, 1}, ChannelStretch{0, 0, 1}, ChannelStretch{0, 0, 1}};
            made->picture
                ->enqueue(made->mnf->cubeBuffer(), made->mnf->exactIntegerPath(), P, grey, scratch,
                          made->mnf->bandPitch())
                .milliseconds();
            made->picture->enqueue(made->mnf->denoised(), false, P, grey, scratch).milliseconds();
        },
        [this, made, label, starting] {
            if (starting) {
                mnf_ = std::move(made->mnf);
                picture_ = std::move(made->picture);
                if (!made->uploadError.empty()) {
                    app_.error("cannot use '" + label + "': " + made->uploadError);
                    return;
                }
                adoptCube(std::move(made->scene.cube), std::move(made->scene.header), label);
            } else {
                for (const std::string& a : made->scene.header.assumptions)
                    app_.notice(label + ": " + a);
                // The old cube stays when the new one cannot be shown.
                if (!app_.attempt([&] {
                        adoptCube(std::move(made->scene.cube), std::move(made->scene.header),
                                  label);
                    }))
                    return;
                mnf_ = std::move(made->mnf);
                app_.notice("loaded " + label);
            }
            if (!made->computed) return;
            // adoptCube() made every step stale: what the job computed stands where a change
            // during the job left its settings alone.
            const Steps& s = made->steps;
            statsStale_ = controls_.noise != s.noise || !(controls_.noiseRect == s.noiseRect);
            transformStale_ = componentsM() != s.m;
            denoiseStale_ = keepK() != s.k || shownBands() != s.bands;
            adoptSteps(s);
        },
        starting ? std::function<void(const std::string&)>()
                 : [this](const std::string& why) { app_.error(why); });
}

bool SpectralDemo::needsCompute() const {
    if (cube_.shape.values() == 0) return false;
    if (!runError_.empty()) return statsStale_;  // failed: wait for a change of the statistics
    return statsStale_ || transformStale_ || denoiseStale_;
}

SpectralDemo::Steps SpectralDemo::takeStaleSteps() {
    Steps s;
    s.stats = statsStale_;
    s.transform = statsStale_ || transformStale_;
    s.denoise = statsStale_ || denoiseStale_;
    s.noise = controls_.noise;
    s.noiseRect = controls_.noiseRect;
    s.m = componentsM();
    s.k = keepK();
    s.vectors = std::max(s.m, s.k);
    s.bands = shownBands();
    statsStale_ = transformStale_ = denoiseStale_ = false;
    return s;
}

void SpectralDemo::runSteps(SpectralMnf& mnf, const Steps& s, JobProgress* progress) {
    const int total = int(s.stats) + int(s.transform) + int(s.denoise);
    int done = 0;
    auto report = [&](const std::string& what) {
        if (progress) progress->report("Recomputing the MNF: " + what, ++done, total);
    };
    if (s.stats) {
        report(std::string("statistics, noise=") + noiseEstimateName(s.noise));
        mnf.run(s.noise, s.noiseRect, s.vectors);
    }
    if (s.transform) {
        report("components, m = " + std::to_string(s.m));
        mnf.transform(s.m);
    }
    if (s.denoise) {
        report("denoising, k = " + std::to_string(s.k));
        mnf.denoise(s.k, s.bands);
    }
}

void SpectralDemo::adoptSteps(const Steps& s) {
    const MnfStatisticsResult& r = mnf_->result();
    if (s.stats) {
        shown_.noise = s.noise;
        shown_.noiseRect = s.noiseRect;
        runError_.clear();
    }
    if (s.transform) shown_.m = s.m;
    if (s.denoise) {
        shown_.k = s.k;
        shown_.bands = s.bands;
        denoiseMatrix_ = mnf_->denoiseMatrix();  // the job's, for s.k
    }
    shown_.result = r;
    shown_.timings = mnf_->timings();
    picturesStale_ = true;
    // A change is shown once the result of its settings (or a later change's) is.
    if (s.stats && statsChangedAt_ && shown_.noise == controls_.noise &&
        shown_.noiseRect == controls_.noiseRect) {
        const double ms = std::chrono::duration<double, std::milli>(
                              std::chrono::steady_clock::now() - *statsChangedAt_)
                              .count();
        changesShown_.push_back({ms, shown_.timings.wallMs + shown_.timings.transformMs});
        statsChangedAt_.reset();
    }
}

void SpectralDemo::stepsFailed(const std::string& why) {
    if (runError_ != why) app_.error(std::string("spectral lab: ") + why);
    runError_ = why;
    picturesStale_ = true;  // the left image still shows the bands
}

// The stale steps as a job on mnf_: until it is done the frame neither reads mnf_ nor queues
// work (the queue is the job's), and the panels and pictures show shown_.
void SpectralDemo::startRecompute() {
    const Steps steps = takeStaleSteps();
    SpectralMnf* mnf = mnf_.get();
    jobKind_ = JobKind::Recompute;
    job_.start(
        true, "Recomputing the MNF",
        [mnf, steps](JobProgress& progress) { runSteps(*mnf, steps, &progress); },
        [this, steps] { adoptSteps(steps); }, [this](const std::string& why) { stepsFailed(why); });
}

}  // namespace clviz
