#include "app/spectral/demo.hpp"

#include <glad/gl.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <memory>
#include <utility>

#include "app/spectral/cube_controls.hpp"
#include "common/error.hpp"
#include "common/median.hpp"
#include "compute/core/cl_boundary.hpp"
#include "compute/core/compute_context.hpp"
#include "compute/interop/external_memory.hpp"
#include "compute/interop/texture_share.hpp"
#include "compute/spectral/io/envi_file.hpp"
#include "compute/spectral/mnf.hpp"
#include "compute/spectral/reference.hpp"
#include "compute/spectral/scene.hpp"
#include "compute/spectral/view_image.hpp"

namespace clviz {

namespace {

void copyToField(std::array<char, 512>& field, const std::string& text) {
    const std::size_t n = std::min(text.size(), field.size() - 1);
    std::memcpy(field.data(), text.data(), n);
    field[n] = '\0';
}

// The lab's start-up cube: a generated scene of Indian Pines' size.
EnviCube generatedScene() {
    SceneSpec spec;
    spec.shape = {145, 145, 200};
    Scene scene = makeScene(spec);
    EnviCube out;
    out.cube = std::move(scene.cube);
    out.header.wavelength = scene.wavelengthNm;
    out.header.wavelengthUnits = "nm";
    return out;
}
const char* const kGeneratedLabel = "generated scene 145 x 145 x 200 u8";

std::string csvPathFor(const std::string& headerPath) {
    std::string stem = headerPath;
    if (stem.size() > 4 &&
        (stem.substr(stem.size() - 4) == ".hdr" || stem.substr(stem.size() - 4) == ".HDR"))
        stem.resize(stem.size() - 4);
    return stem + ".eigenvalues.csv";
}

}  // namespace

std::unique_ptr<Demo> makeSpectralDemo() {
    return std::make_unique<SpectralDemo>();
}

SpectralDemo::SpectralDemo() = default;
SpectralDemo::~SpectralDemo() = default;

void SpectralDemo::init(const AppServices& app) {
    app_ = app;
    cc_ = app.compute;
    if (!cc_) throw Error("the spectral lab needs an OpenCL context");
    glMaxTextureSize_ = maxGlTextureSize();
    caps_ = detectClInteropCaps(cc_->info().extensions);
    caps_.clContextSharesGl = app.clContextSharesGl;
    detectGlInteropCaps(caps_);
    probeExternalMemory(*cc_, caps_);
    interop_ = chooseInteropPath(InteropRequest::Auto, caps_);
    copyToField(saveField_, "clviz-mnf.hdr");
    if (appWorksOffFrame(app_)) return startOffFrame();
    // Here and now the cube and the kernels wait for the first step, after the --set settings
    // (--cube) that decide them.
    mnf_ = std::make_unique<SpectralMnf>(*cc_);
    picture_ = std::make_unique<SpectralPicture>(*cc_);
}

// What init and the first step do inside the frame, on a worker thread: the generated cube, its
// upload, the first MNF with the kernel builds it starts (PoCL builds at the first launch), and a
// picture of each kind. The frame that sees the job done takes the device objects and the cube.
void SpectralDemo::startOffFrame() {
    pendingDefault_ = false;
    startCubeJob(JobKind::Start, kGeneratedLabel, [] { return generatedScene(); });
}

void SpectralDemo::shutdown() {
    job_.cancel();                 // waits for the step in progress
    if (!changesShown_.empty()) {  // how interactive the run was (issue 30's viewer target)
        std::vector<double> after, mnf;
        for (const ChangeShown& c : changesShown_) {
            after.push_back(c.afterChangeMs);
            mnf.push_back(c.mnfMs);
        }
        // Every change's, in order, as shown-after / its MNF: the first ones may build kernels.
        std::string each;
        for (std::size_t i = 0; i < after.size(); ++i) {
            char v[48];
            std::snprintf(v, sizeof v, "%s%.1f/%.1f", i ? ", " : "", after[i], mnf[i]);
            each += v;
        }
        std::printf(
            "spectral: %zu changes of the noise statistics shown %.1f ms after the change "
            "(median; max %.1f; each: %s), their MNF %.2f ms (median; run() wall + "
            "transform)\n",
            changesShown_.size(), median(after), *std::max_element(after.begin(), after.end()),
            each.c_str(), median(mnf));
    }
    if (cc_) cc_->finishQuietly();
    original_.reset();
    denoised_.reset();
    picture_.reset();
    mnf_.reset();
}

// --- loading ----------------------------------------------------------------------------------

void SpectralDemo::loadFile(const std::string& path) {
    if (path.empty()) throw Error("no file name given");
    EnviCube loaded = readEnvi(path);
    for (const std::string& a : loaded.header.assumptions)
        app_.notice(path + ": " + a);
    useCube(std::move(loaded.cube), std::move(loaded.header), path);
}

void SpectralDemo::checkTextureSize(const CubeShape& shape, const std::string& label) const {
    checkFitsTexture(shape, label, glMaxTextureSize_);
}

void SpectralDemo::useCube(Cube cube, EnviHeader meta, const std::string& label) {
    checkTextureSize(cube.shape, label);
    try {
        mnf_->upload(cube);
    } catch (const Error& e) {
        throw Error("cannot use '" + label + "': " + e.what());
    }
    adoptCube(std::move(cube), std::move(meta), label);
}

void SpectralDemo::adoptCube(Cube cube, EnviHeader meta, const std::string& label) {
    checkTextureSize(cube.shape, label);
    try {
        const int w = cube.shape.samples, h = cube.shape.lines;
        original_ = std::make_unique<SharedTexture>(*cc_, interop_, w, h);
        denoised_ = std::make_unique<SharedTexture>(*cc_, interop_, w, h);
        rgba_ = clBoundary("cannot allocate the picture buffer", [&] {
            return cl::Buffer(cc_->context(), CL_MEM_READ_WRITE, std::size_t(w) * h * 4);
        });
    } catch (const Error& e) {
        throw Error("cannot use '" + label + "': " + e.what());
    }
    cube_ = std::move(cube);
    meta_ = std::move(meta);
    label_ = label;
    pendingDefault_ = false;
    // Per-band mean and standard deviation: the pictures' stretch (mean +- 2.5 sd).
    const int B = cube_.shape.bands;
    const std::size_t P = cube_.shape.pixels();
    bandMean_.assign(B, 0.0);
    bandSd_.assign(B, 0.0);
    for (int b = 0; b < B; ++b) {
        double sum = 0, sum2 = 0;
        for (std::size_t p = 0; p < P; ++p) {
            const double v = cube_.value(std::size_t(b) * P + p);
            sum += v;
            sum2 += v * v;
        }
        bandMean_[b] = sum / double(P);
        bandSd_[b] = std::sqrt(std::max(0.0, sum2 / double(P) - bandMean_[b] * bandMean_[b]));
    }
    fitControlsToCube(controls_, meta_, cube_.shape);
    cursorPixel_.reset();
    shown_ = Shown{};
    statsStale_ = transformStale_ = denoiseStale_ = picturesStale_ = true;
    runError_.clear();
}

void SpectralDemo::loadDefault() {
    pendingDefault_ = false;
    EnviCube scene = generatedScene();
    app_.attempt([&] { useCube(std::move(scene.cube), std::move(scene.header), kGeneratedLabel); });
}

// --- computing --------------------------------------------------------------------------------

int SpectralDemo::clampBand(int b) const {
    return clampBandOf(b, cube_.shape);
}

int SpectralDemo::componentsM() const {
    return componentsOf(controls_, cube_.shape);
}

int SpectralDemo::keepK() const {
    return keepOf(controls_, cube_.shape);
}

std::vector<int> SpectralDemo::shownBands() const {
    return shownBandsOf(controls_, cube_.shape);
}

std::string SpectralDemo::bandLabel(int band) const {
    char text[96];
    if (band < int(meta_.wavelength.size()))
        std::snprintf(text, sizeof text, "band %d: %.1f %s", band, meta_.wavelength[band],
                      meta_.wavelengthUnits.empty() ? "" : meta_.wavelengthUnits.c_str());
    else
        std::snprintf(text, sizeof text, "band %d", band);
    return text;
}

bool SpectralDemo::compute() {
    if (!needsCompute()) return cube_.shape.values() > 0 && runError_.empty();
    const Steps steps = takeStaleSteps();
    try {
        runSteps(*mnf_, steps, nullptr);
    } catch (const Error& e) {
        stepsFailed(e.what());
        return false;
    }
    adoptSteps(steps);
    return true;
}

void SpectralDemo::renderPictures() {
    if (!original_ || !picturesStale_) return;
    const int P = int(cube_.shape.pixels());
    auto bandStretch = [&](int b, int row) {
        b = clampBand(b);
        return ChannelStretch{row, float(bandMean_[b] - 2.5 * bandSd_[b]),
                              float(bandMean_[b] + 2.5 * bandSd_[b])};
    };
    // What mnf_ holds (shown_), not the controls: a recompute for newer ones may wait.
    const bool haveResult = runError_.empty() && shown_.m > 0 && !shown_.bands.empty();
    std::array<ChannelStretch, 3> left;
    const cl::Buffer* leftSrc = &mnf_->cubeBuffer();
    std::size_t leftPitch = mnf_->bandPitch();
    bool leftU8 = mnf_->exactIntegerPath();
    if (controls_.view == SpectralViewMode::MnfRgb && haveResult) {
        const MnfBasis& basis = shown_.result.basis;
        for (int c = 0; c < 3; ++c) {
            const int comp = std::clamp(controls_.mnfRgb[c], 0, shown_.m - 1);
            const float sd = float(std::sqrt(std::max(basis.eigenvalues[comp], 0.0)));
            left[c] = {comp, -2.5f * sd, 2.5f * sd};
        }
        leftSrc = &mnf_->components();
        leftPitch = 0;
        leftU8 = false;
    } else {
        const std::vector<int> bands =
            controls_.view == SpectralViewMode::Band
                ? std::vector<int>{controls_.band, controls_.band, controls_.band}
                : std::vector<int>{controls_.rgbBands.begin(), controls_.rgbBands.end()};
        for (int c = 0; c < 3; ++c)
            left[c] = bandStretch(bands[c], clampBand(bands[c]));
    }
    try {
        EnqueuedWork w = picture_->enqueue(*leftSrc, leftU8, P, left, rgba_, leftPitch);
        pictureMs_ = w.milliseconds();
        const TextureTransferTiming t = original_->copyFrom(rgba_);
        transferMs_ = t.deviceMs + t.hostMs;
        if (haveResult) {
            // The denoised rows are shown_.bands in order, stretched as the originals.
            const std::vector<int>& rows = shown_.bands;
            std::array<ChannelStretch, 3> right;
            for (int c = 0; c < 3; ++c) {
                const int r = rows.size() == 1 ? 0 : c;
                right[c] = bandStretch(rows[r], r);
            }
            EnqueuedWork d = picture_->enqueue(mnf_->denoised(), false, P, right, rgba_);
            pictureMs_ += d.milliseconds();
            const TextureTransferTiming td = denoised_->copyFrom(rgba_);
            transferMs_ += td.deviceMs + td.hostMs;
        }
    } catch (const Error& e) {
        runError_ = e.what();
        app_.error(std::string("spectral lab: ") + e.what());
    }
    picturesStale_ = false;
}

void SpectralDemo::step(const FrameInfo&) {
    // While a job runs the frame shows what it showed; the job's own queue work is not waited on.
    if (!job_.finish(false)) return;
    if (pendingDefault_) loadDefault();
    if (appWorksOffFrame(app_)) {
        if (!pendingCube_.empty()) {
            const std::string path = std::exchange(pendingCube_, std::string());
            app_.attempt([&] { openCube(path); });
            if (job_.running()) return;
        }
        // The pictures show the result the frame has (shown_) while the next one is computed,
        // unless the bands shown changed: then they wait for it (no picture of one band beside
        // the denoised picture of another). Without a result yet only the original is drawn.
        if (!needsCompute() || shown_.m == 0 || shown_.bands == shownBands()) renderPictures();
        if (needsCompute()) startRecompute();
        return;
    }
    compute();
    renderPictures();
}

void SpectralDemo::draw(const FrameInfo&) {
    // The pictures and plots are drawn in the lab's windows (gui.cpp); the background stays clear.
}

// --- saving -------------------------------------------------------------------------------------

void SpectralDemo::save(const std::string& path) {
    if (path.empty()) throw Error("save: no file name given");
    if (pendingDefault_) loadDefault();
    if (!compute()) throw Error(runError_.empty() ? "save: no cube loaded" : "save: " + runError_);
    const int m = componentsM();
    const std::vector<float> z = mnf_->readComponents();
    Cube out = makeCube({cube_.shape.samples, cube_.shape.lines, m}, CubeType::F32);
    std::memcpy(out.data.data(), z.data(), out.data.size());
    const MnfStatisticsResult& r = mnf_->result();
    EnviHeader h;
    h.description = "clviz MNF components of " + label_ +
                    ": noise=" + noiseEstimateName(r.estimate) + ", m=" + std::to_string(m) +
                    ", Z = T^T (X - mean), eigenvalues in " + csvPathFor(path);
    for (int c = 0; c < m; ++c)
        h.bandNames.push_back("MNF " + std::to_string(c + 1));
    try {
        writeEnvi(path, out, h);
        std::ofstream csv(csvPathFor(path));
        csv << "index,eigenvalue\n";
        char line[64];
        for (std::size_t i = 0; i < r.basis.eigenvalues.size(); ++i) {
            std::snprintf(line, sizeof line, "%zu,%.17g\n", i + 1, r.basis.eigenvalues[i]);
            csv << line;
        }
        if (!csv) throw Error("cannot write '" + csvPathFor(path) + "'");
    } catch (const Error& e) {
        throw Error(std::string("save: ") + e.what());
    }
    app_.notice("saved " + std::to_string(m) + " MNF components to " + path + " and " +
                csvPathFor(path));
}

// --- commands -----------------------------------------------------------------------------------

// A recompute or a load that runs goes on: a change marks what it makes stale, and the next
// frame after the job starts the steps again with the newest settings.
void SpectralDemo::set(const std::string& key, const std::string& value) {
    if (key == "cube") return openCube(value);
    // A setting applies to the lab the start leads to.
    if (job_.running() && jobKind_ == JobKind::Start) job_.finish(true);
    if (key == "save") {
        job_.finish(true);  // saves what the settings give, computed here
        return save(value);
    }
    const SpectralControls before = controls_;
    applySpectralSetting(controls_, key, value);
    if (controls_.noise != before.noise || !(controls_.noiseRect == before.noiseRect)) {
        statsStale_ = true;
        if (!statsChangedAt_) statsChangedAt_ = std::chrono::steady_clock::now();
    }
    if (controls_.components != before.components) transformStale_ = true;
    denoiseStale_ = true;
    // The MNF's settings redraw the pictures once their steps are done (adoptSteps), not before.
    const bool mnfKey =
        key == "noise" || key == "noise-rect" || key == "components" || key == "keep";
    if (!mnfKey) picturesStale_ = true;
}

void SpectralDemo::openCube(const std::string& path) {
    // During the start (--cube FILE) the start is waited for and the file read here, so that a
    // bad file ends the run with its reason as it does headless.
    const bool starting = job_.running() && jobKind_ == JobKind::Start;
    if (starting) job_.finish(true);
    if (starting || !appWorksOffFrame(app_) || cube_.shape.values() == 0) {
        loadFile(path);
        app_.notice("loaded " + path);
        return;
    }
    if (path.empty()) throw Error("no file name given");
    if (job_.running()) {
        pendingCube_ = path;
        return;
    }
    startLoad(path);
}

void SpectralDemo::onDrop(const std::string& path) {
    app_.attempt([&] { openCube(path); });
}

void SpectralDemo::kernelsReloaded() {
    job_.finish(true);  // the job's kernels are replaced once it is done with them
    if (cube_.shape.values() == 0) return;
    mnf_ = std::make_unique<SpectralMnf>(*cc_);
    picture_ = std::make_unique<SpectralPicture>(*cc_);
    mnf_->upload(cube_);
    statsStale_ = transformStale_ = denoiseStale_ = picturesStale_ = true;
}

Demo::ReferenceResult SpectralDemo::checkReference() {
    job_.finish(true);
    if (cube_.shape.values() == 0 || !cc_) return {};
    const CubeShape cs{std::min(64, cube_.shape.samples), std::min(64, cube_.shape.lines),
                       cube_.shape.bands};
    Cube crop = makeCube(cs, cube_.type);
    const std::size_t bytes = bytesPerValue(cube_.type);
    for (int b = 0; b < cs.bands; ++b)
        for (int l = 0; l < cs.lines; ++l)
            std::memcpy(crop.data.data() + crop.index(l, 0, b) * bytes,
                        cube_.data.data() + cube_.index(l, 0, b) * bytes,
                        std::size_t(cs.samples) * bytes);
    const std::string what = std::string("spectral lab vs CPU reference (") + describeShape(cs) +
                             " crop, noise=" + noiseEstimateName(controls_.noise) + "): ";
    try {
        SpectralMnf device(*cc_);
        device.upload(crop);
        const MnfBasis& got = device.run(controls_.noise).basis;
        const MnfStatistics st = mnfStatisticsReference(crop, controls_.noise);
        const MnfBasis want = solveMnf(st.noiseCov, st.dataCov, cs.bands);
        int compared = 0;
        double worst = 0;
        for (int j = 0; j < cs.bands; ++j) {
            if (want.eigenvalues[j] <= 11) continue;
            worst = std::max(worst, std::abs(got.eigenvalues[j] / want.eigenvalues[j] - 1));
            ++compared;
        }
        const bool ok = worst <= 1e-4;
        char text[160];
        std::snprintf(text, sizeof text,
                      "%s; %d eigenvalues with SNR > 10, worst relative error %.2g (limit 1e-4)",
                      ok ? "OK" : "MISMATCH", compared, worst);
        return {ok, what + text};
    } catch (const Error& e) {
        return {false, what + "MISMATCH; " + e.what()};
    }
}

std::vector<std::pair<std::string, std::string>> SpectralDemo::keyHelp() const {
    return {{"Hover the left image", "spectrum of that pixel, original and denoised"},
            {"Shift+drag on the left image", "rectangle the noise statistics come from"},
            {"Drop a .hdr file", "open that ENVI cube"}};
}

}  // namespace clviz
