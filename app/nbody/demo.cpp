#include "app/nbody/demo.hpp"

#include <utility>

#include <glad/gl.h>
#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>

#include <algorithm>
#include <charconv>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>

#include "common/error.hpp"
#include "compute/core/compute_context.hpp"
#include "compute/core/device_select.hpp"
#include "compute/core/kernel_run_log.hpp"
#include "compute/interop/external_memory.hpp"
#include "compute/nbody/reference_check.hpp"
#include "compute/nbody/run_record.hpp"
#include "compute/nbody/snapshot.hpp"
#include "render/gl/screenshot.hpp"

namespace clviz {

std::unique_ptr<Demo> makeNbodyDemo(const NbodyMpiLink* mpi) {
    return std::make_unique<NbodyDemo>(mpi);
}

namespace {

// Default N: interactive on a CPU device (PoCL manages a few 1e8 interactions/s per core, so
// 2048 bodies per compute unit keeps a step near 30 ms), a fuller picture on a GPU.
constexpr std::size_t kBodiesPerCpuCore = 2048;
constexpr std::size_t kMinDefaultBodies = 4096;
constexpr std::size_t kMaxDefaultBodiesCpu = 16384;
constexpr std::size_t kDefaultBodiesGpu = 65536;

std::size_t defaultBodies(const DeviceInfo& device) {
    if (device.kind == DeviceKind::Gpu) return kDefaultBodiesGpu;
    return std::clamp(kBodiesPerCpuCore * device.computeUnits, kMinDefaultBodies,
                      kMaxDefaultBodiesCpu);
}

// Diagnostics run at most this share of the frames' time on average (all-pairs: about one force
// pass per measurement; the tree: an O(N) sum).
constexpr double kDiagnosticsBudget = 0.05;
// Slice budget before any frame time is known.
constexpr double kFirstSliceBudgetMs = 2.0;

// Sprite radius as a fraction of the scene radius, and brightness per sprite at N = 16384.
constexpr float kSizeFraction = 0.008f;
constexpr float kIntensityAt16k = 0.55f;

}  // namespace

NbodyDemo::NbodyDemo(const NbodyMpiLink* mpi) : mpi_(mpi) {}
NbodyDemo::~NbodyDemo() = default;

void NbodyDemo::init(const AppServices& app) {
    app_ = app;
    cc_ = app.compute;
    if (cc_ == nullptr) throw Error("the N-body demo needs an OpenCL context");

    caps_ = detectClInteropCaps(cc_->info().extensions);
    detectGlInteropCaps(caps_);
    probeExternalMemory(*cc_, caps_);
    caps_.clContextSharesGl = app.clContextSharesGl;

    renderer_ = std::make_unique<ParticleRenderer>();
    renderTimer_ = std::make_unique<GlTimer>();
    createMoreDevices();
    std::vector<ComputeContext*> more;
    for (const auto& c : moreCompute_)
        more.push_back(c.get());
    if (n_ == 0) n_ = defaultBodies(cc_->info());
    const NbodyPresetInfo& info = presetInfo(preset_);
    // The system and its kernels are made off the frame (a cold cache builds for seconds), and
    // the frame that sees them done shows the bodies. The force kernel and auto's pick wait for
    // the first step, after the --set settings (N, variant) that decide what they are.
    struct Made {
        std::unique_ptr<NbodySystem> system;
        std::vector<Body> bodies;
    };
    auto made = std::make_shared<Made>();
    startJob(
        "Starting the N-body demo",
        [this, made, more, info, n = n_, preset = preset_, seed = seed_](JobProgress& progress) {
            progress.report("Building kernels: nbody_integrate");
            // Auto-tune results remembered in the user's cache; the CLVIZ_NBODY_* switches.
            made->system =
                makeNbodySystem(*cc_, more, NbodyEnvironment::fromProcessEnvironment(), mpi_);
            made->system->setVariant(NbodyVariant::Auto);  // the fastest here; --set variant=...
            NbodyParams params{info.dt, info.softening, 1.0f};
            params.thetaFar = info.thetaFar;
            made->system->setParams(params);
            made->bodies = makePreset(preset, n, seed);
            made->system->load(made->bodies);
        },
        [this, made, radius = info.viewRadius] {
            system_ = std::move(made->system);
            sim_ = &system_->primary();
            accuracyInFlight_ = false;  // a sample begun on a system that is gone
            loadedScene_.clear();
            showLoadedBodies(made->bodies, radius);
        });
}

void NbodyDemo::shutdown() {
    job_.cancel();  // cancels a build or tune and waits for the step it is in
    if (sim_ && timings_.totals().frames > 0) {
        std::printf("%s\n", timings_.summaryLine(setupDescription()).c_str());
        if (lastSplit_ && !lastSplit_->integration.empty())
            std::printf("tree integration: %s\n", lastSplit_->integration.c_str());
        if (lastSplit_ && !lastSplit_->treeBuild.empty())
            std::printf("tree build: %s\n", lastSplit_->treeBuild.c_str());
        if (lastSplit_)
            for (const NbodyDeviceTimings& d : lastSplit_->devices)
                std::printf(
                    "split: %s: bodies %zu + %zu, compute %.3f ms, exchange %.3f ms, wait "
                    "%.3f ms per step\n",
                    d.device.c_str(), d.begin, d.count, d.computeMs, d.exchangeMs, d.waitMs);
        std::fflush(stdout);
    }
    // Bridges first: they wait for copies into GL memory before freeing it.
    positions_.reset();
    velocities_.reset();
    if (cc_) cc_->finishQuietly();
    sim_ = nullptr;
    system_.reset();
    moreCompute_.clear();  // after the system that uses them
    renderTimer_.reset();
    renderer_.reset();
}

// ---- devices ----------------------------------------------------------------------------------

void NbodyDemo::createMoreDevices() {
    moreCompute_.clear();
    if (devices_.empty()) return;
    if (!app_.platforms) throw Error("the N-body demo was given no OpenCL platforms to split over");
    const DeviceChoice& drawing = app_.drawingDevice;
    for (const DeviceChoice& c : chooseDevices(*app_.platforms, devices_, app_.platformRequest)) {
        if (c.platform == drawing.platform && c.device == drawing.device) continue;
        moreCompute_.push_back(std::make_unique<ComputeContext>(*app_.platforms, c));
        std::fprintf(stderr,
                     "clviz: the N-body bodies are also split onto OpenCL device %d.%d: %s\n",
                     c.platform, c.device, moreCompute_.back()->info().name.c_str());
    }
}

void NbodyDemo::setDevices(const std::string& spec) {
    if (mpi_) throw Error("under --mpi the bodies are split over the MPI ranks, not --devices");
    // What the restart keeps: the bodies as they are now, the view, and the settings that live
    // in the system (the others are members).
    const std::vector<Body> bodies = system_->readBodies();
    const std::string scene = loadedScene_;
    const float radius = viewRadius_;
    const OrbitCamera camera = camera_;
    const NbodyParams params = sim_->params();
    const NbodyKernelConfig config = system_->kernelConfig();
    const NbodyIntegrator integrator = sim_->integrator();
    const NbodyPrecision precision = sim_->precision();
    const std::string previous = devices_;
    shutdown();
    timings_ = NbodyTimingLog{};  // the new set's figures start afresh
    lastSplit_.reset();
    // Back to the previous set when the new one fails, and to the drawing device alone (which
    // the shell owns and which ran until now) when that fails too.
    std::string why;
    for (const std::string& attempt : {spec, previous, std::string()}) {
        devices_ = attempt;
        try {
            init(app_);
            finishJob(true);  // the restart's kernels: the bodies go back on at once below
            break;
        } catch (const Error& e) {
            if (attempt.empty()) throw;
            if (why.empty()) why = "cannot split the bodies over " + spec + ": " + e.what();
            shutdown();
        }
    }
    system_->setPrecision(precision);
    system_->setIntegrator(integrator);
    system_->setTreeSplitBuild(treeSplitBuild_);
    try {
        system_->setTreeIntegration(treeIntegration_);
    } catch (const Error& e) {  // replicated on a new set that is mixed: auto falls back there
        treeIntegration_ = NbodyTreeIntegration::Auto;
        if (why.empty()) why = e.what();
    }
    system_->setKernelConfig(config);
    system_->setParams(params);
    loadBodies(bodies, radius);
    loadedScene_ = scene;
    camera_ = camera;
    if (!why.empty()) throw Error(why);
    app_.notice("the bodies are now split over " + std::to_string(1 + moreCompute_.size()) +
                " device(s); the system restarted with them as they were");
}

std::vector<ComputeContext*> NbodyDemo::extraDevices() const {
    std::vector<ComputeContext*> more;
    for (const auto& c : moreCompute_)
        more.push_back(c.get());
    return more;
}

std::optional<DeviceSetSection> NbodyDemo::deviceSetSection() const {
    if (mpi_ || !cc_) return std::nullopt;
    DeviceSetSection s{"N-body on several devices", "devices", {}};
    s.devices.emplace_back(app_.drawingDevice.platform, app_.drawingDevice.device);
    for (const auto& c : moreCompute_)
        s.devices.emplace_back(c->choice().platform, c->choice().device);
    return s;
}

// ---- scene ------------------------------------------------------------------------------------

void NbodyDemo::rebuild() {
    loadedScene_.clear();
    const NbodyPresetInfo& info = presetInfo(preset_);
    loadBodies(makePreset(preset_, n_, seed_), info.viewRadius);
}

void NbodyDemo::loadBodies(const std::vector<Body>& bodies, float viewRadius) {
    system_->load(bodies);
    showLoadedBodies(bodies, viewRadius);
}

void NbodyDemo::showLoadedBodies(const std::vector<Body>& bodies, float viewRadius) {
    n_ = bodies.size();
    stepsInFlight_ = false;

    // Colour scales from the initial state: most bodies below the top of the map.
    std::vector<float> speeds;
    speeds.reserve(bodies.size());
    float maxMass = 0;
    for (const Body& b : bodies) {
        speeds.push_back(std::sqrt(b.vel.x * b.vel.x + b.vel.y * b.vel.y + b.vel.z * b.vel.z));
        maxMass = std::max(maxMass, b.pos.w);
    }
    auto p90 = speeds.begin() + std::ptrdiff_t(speeds.size() * 9 / 10);
    std::nth_element(speeds.begin(), p90, speeds.end());
    speedScale_ = *p90 > 0 ? *p90 * 1.5f : 1.0f;
    massScale_ = maxMass > 0 ? maxMass : 1.0f;

    viewRadius_ = viewRadius > 0 && std::isfinite(viewRadius) ? viewRadius : 1.0f;
    camera_.frame(viewRadius_);

    // The bridges are sized for N: recreate them when N changed.
    const std::size_t bytes = n_ * sizeof(Float4);
    if (!positions_ || positions_->capacity() != bytes) applyInterop();
    needsPublish_ = true;

    timings_.clearTotals();
    energyDrift_ = {};
    momentum_ = {};
    haveDiagnostics_ = false;
    nonFiniteReported_ = false;
    framesSinceDiagnostics_ = diagnosticsEvery_;  // first diagnostics right away
}

std::string NbodyDemo::sceneLabel() const {
    return loadedScene_.empty() ? presetInfo(preset_).name : loadedScene_;
}

void NbodyDemo::resetScene() {
    finishJob(true);  // the job's system is the one to reset
    if (!sim_) return;
    rebuild();
    app_.notice("N-body reset: " + std::string(presetInfo(preset_).name) +
                ", N = " + std::to_string(n_));
}

// ---- interop ----------------------------------------------------------------------------------

void NbodyDemo::applyInterop() {
    positions_.reset();  // waits for its copies before GL memory goes away
    velocities_.reset();
    fallback_.clear();
    choice_ = chooseInteropPath(request_, caps_);
    const std::size_t bytes = std::max<std::size_t>(n_, 1) * sizeof(Float4);
    try {
        positions_ = createBufferBridge(choice_.path, *cc_, bytes, caps_);
    } catch (const Error& e) {
        fallBackToHostCopy(e.what());
        return;
    }
    positions_->setLatency(latency_);
    needsPublish_ = true;
    std::fprintf(stderr, "clviz: nbody interop: %s (%s)\n", interopPathName(choice_.path),
                 choice_.reason.c_str());
}

void NbodyDemo::fallBackToHostCopy(const std::string& why) {
    const InteropPath failed = choice_.path;
    positions_.reset();
    velocities_.reset();
    fallback_ = std::string(interopPathName(failed)) + " failed: " + why;
    choice_ = {InteropPath::HostCopy, fallback_ + "; fell back to host copy"};
    const std::size_t bytes = std::max<std::size_t>(n_, 1) * sizeof(Float4);
    positions_ = createBufferBridge(InteropPath::HostCopy, *cc_, bytes, caps_);
    positions_->setLatency(latency_);
    needsPublish_ = true;
    app_.error("N-body interop: " + choice_.reason);
}

void NbodyDemo::publish() {
    const std::size_t bytes = n_ * sizeof(Float4);
    try {
        positions_->publish(sim_->positions(), bytes);
        if (wantVelocities()) {
            if (!velocities_) {
                velocities_ = createBufferBridge(positions_->path(), *cc_, bytes, caps_);
                velocities_->setLatency(latency_);
            }
            velocities_->publish(sim_->velocities(), bytes);
        }
    } catch (const Error& e) {
        if (positions_->path() == InteropPath::HostCopy) throw;
        fallBackToHostCopy(e.what());
        publish();
    }
}

// ---- frame ------------------------------------------------------------------------------------

void NbodyDemo::step(const FrameInfo& frame) {
    if (!finishJob(false)) return;  // the scene waits for its kernels; the frame goes on
    if (!sim_) return;
    if (!systemReady()) {  // a new N, variant or precision: build (and tune) first
        prepareSystem();
        if (job_.running()) return;
    }
    NbodyFrameSample sample;
    sample.frameMs = frame.index > 0 ? frame.dt * 1000.0 : -1;
    sample.bodies = double(n_);

    // Steps deferred to frameEnd() that it never ran (the window was minimized): run them now.
    if (deferredSteps_ > 0) runSteps(std::exchange(deferredSteps_, 0));
    // Timings of the previous frame's steps: they finished while this frame was prepared, so
    // this rarely waits, and the device is never idle waiting for us to ask. (GPU-ordered
    // frames read them in frameEnd(), before the next steps replace them.)
    if (stepsInFlight_) collectStepTimings();
    if (stepTimingsFresh_) {
        stepTimingsFresh_ = false;
        sample.kernelMs = lastStep_.kernelMs;
        sample.forceMs = lastStep_.forceMs;
        sample.steps = lastStep_.steps;
        sample.interactionsPerStep = lastStep_.interactionsPerStep;
        sample.flopsPerInteraction = lastStep_.flopsPerInteraction;
    }
    if (comparing()) {  // one variant this frame; the scene waits
        compareNextVariant();
        timings_.add(sample);
        return;
    }

    pollDiagnostics();  // reads events only: a slice still running waits for the next frame
    const int steps = paused_ ? pendingSteps_ : stepsPerFrame_;
    pendingSteps_ = 0;
    const bool turns = drawsInTurn();
    if (positions_) positions_->setTakeTurns(turns);
    if (velocities_) velocities_->setTakeTurns(turns);
    if (steps > 0 && turns && frame.framebufferWidth > 0) {
        deferredSteps_ = steps;  // frameEnd(): after this frame's drawing, on the GPU too
        if (needsPublish_) {     // a new bridge (or scene) has nothing to draw yet
            publish();
            needsPublish_ = false;
        }
    } else if (steps > 0) {
        runSteps(steps);
    } else if (needsPublish_) {
        publish();
        needsPublish_ = false;
    }

    sample.copyMs = lastCopy_.deviceMs;
    sample.copyHostMs = lastCopy_.hostMs;
    sample.renderMs = lastRenderMs_;
    lastRenderMs_ = -1;
    timings_.add(sample);
}

bool NbodyDemo::drawsInTurn() const {
    return takeTurns_ && positions_ && positions_->ordersOnGpu() &&
           (!velocities_ || velocities_->ordersOnGpu()) && system_->deviceCount() == 1;
}

void NbodyDemo::collectStepTimings() {
    lastStep_ = sim_->lastStepTimings();
    lastSplit_ = system_->sliceTimings();
    // The whole force pass ran here only on one device without MPI ranks: then it goes on the
    // linear-algebra lab's roofline.
    if (system_->deviceCount() == 1 && !mpi_) {
        NbodyVariant variant = sim_->kernelConfig().variant;
        if (variant == NbodyVariant::Auto) variant = sim_->effectiveKernelConfig().variant;
        if (auto run = nbodyForceRun(lastStep_, variant, sim_->precision()))
            kernelRunLog().record("N-body", *run);
    }
    stepsInFlight_ = false;
    stepTimingsFresh_ = true;
}

void NbodyDemo::runSteps(int steps) {
    system_->step(steps);
    stepsInFlight_ = true;
    publish();
    needsPublish_ = false;
    if (diagnosticsRunning() && ++framesSinceDiagnostics_ >= diagnosticsInterval())
        startDiagnostics();
}

// GL and CL on one GPU take turns instead of overlapping: when both run at once the GPU
// time-slices between their contexts, and the force kernel, preempted by each frame's drawing,
// took 3.0 ms in the viewer against 2.3 ms alone (H200, N = 65,536; docs/benchmarks.md). So
// where the bridge orders GL and CL on the GPU (exported semaphores), this frame's steps are
// enqueued only now, behind a GPU-side wait for everything GL drew and presented; the next
// frame draws their result behind a GPU-side wait for the copy. No CPU wait on either side.
// take-turns-at=drawn (the default) enqueues them before the swap, behind the frame's drawing and
// GUI but not the window system's copy of the frame, so the kernels run while that copy does
// (docs/benchmarks.md, issue 31's viewer); present, after the swap.
void NbodyDemo::beforePresent(const FrameInfo& /*frame*/) {
    if (turnAtDrawn_) runDeferredSteps();
}

void NbodyDemo::frameEnd(const FrameInfo& /*frame*/) {
    runDeferredSteps();  // what beforePresent() left
}

void NbodyDemo::runDeferredSteps() {
    if (deferredSteps_ == 0 || !sim_ || job_.running()) return;
    if (stepsInFlight_) collectStepTimings();
    try {
        positions_->orderAfterDrawing();
        if (velocities_) velocities_->orderAfterDrawing();
    } catch (const Error& e) {
        fallBackToHostCopy(e.what());
    }
    runSteps(std::exchange(deferredSteps_, 0));
}

void NbodyDemo::draw(const FrameInfo& frame) {
    // While a job runs the queue and bridges are its: the window shows the clear colour.
    if (!positions_ || !renderer_ || job_.running()) return;
    BridgeView pv, vv;
    try {
        pv = positions_->view();
        if (wantVelocities() && velocities_) vv = velocities_->view();
    } catch (const Error& e) {
        if (positions_->path() == InteropPath::HostCopy) throw;
        fallBackToHostCopy(e.what());
        publish();
        pv = positions_->view();
        vv = {};
    }
    if (!pv.valid()) return;

    ParticleSource source;
    source.positions = pv.buffer;
    source.positionsOffset = pv.offset;
    source.count = GLsizei(pv.bytes / sizeof(Float4));
    if (vv.valid() && vv.bytes == pv.bytes) {
        source.velocities = vv.buffer;
        source.velocitiesOffset = vv.offset;
    }
    ParticleStyle style = style_;
    style.size = viewRadius_ * kSizeFraction * sizeFactor_;
    style.intensity = std::clamp(
        kIntensityAt16k * brightness_ * std::sqrt(16384.0f / float(std::max<std::size_t>(n_, 1))),
        0.02f, 4.0f);
    style.colourScale = style.colour == ParticleColour::Mass ? massScale_ : speedScale_;

    viewportHeight_ = frame.framebufferHeight;
    renderTimer_->begin();
    renderer_->draw(source, camera_, frame.framebufferWidth, frame.framebufferHeight, style);
    renderTimer_->end();
    positions_->drawn();
    if (vv.valid()) velocities_->drawn();

    lastRenderMs_ = renderTimer_->lastMs();
    lastCopy_ = positions_->lastTiming();
    if (vv.valid()) {
        const BridgeTiming v = velocities_->lastTiming();
        lastCopy_.deviceMs += v.deviceMs;
        lastCopy_.hostMs += v.hostMs;
        lastCopy_.bytes += v.bytes;
    }
    if (!recordDir_.empty()) recordFrame(frame);
}

int NbodyDemo::diagnosticsInterval() const {
    // The user's interval, stretched when diagnostics would eat more than their budget.
    const double frameMs = timings_.frameMs().mean();
    if (!haveDiagnostics_ || frameMs <= 0) return diagnosticsEvery_;
    const double needed = lastDiagnostics_.ms / (kDiagnosticsBudget * frameMs);
    return std::max(diagnosticsEvery_, int(std::min(needed, 1e6)));
}

double NbodyDemo::diagnosticsSliceBudgetMs() const {
    const double frameMs = timings_.frameMs().mean();
    return frameMs > 0 ? kDiagnosticsSliceShare * frameMs : kFirstSliceBudgetMs;
}

void NbodyDemo::startDiagnostics() {
    if (system_->diagnosticsInFlight()) return;  // the one in flight comes first
    framesSinceDiagnostics_ = 0;
    diagnosticsFramesSoFar_ = 0;
    system_->beginDiagnostics(diagnosticsSliceBudgetMs());
}

void NbodyDemo::pollDiagnostics() {
    if (accuracyInFlight_) {
        if (std::optional<TreeAccuracy> a = sim_->pollForceAccuracy()) {
            lastAccuracy_ = *a;
            lastAccuracyTheta_ = accuracyInFlightTheta_;
            accuracyInFlight_ = false;
        }
    }
    if (!system_->diagnosticsInFlight()) return;
    ++diagnosticsFramesSoFar_;
    if (std::optional<NbodyDiagnostics> d = system_->pollDiagnostics()) {
        diagnosticsFramesTaken_ = diagnosticsFramesSoFar_;
        applyDiagnostics(*d);
    }
}

void NbodyDemo::applyDiagnostics(const NbodyDiagnostics& d) {
    lastDiagnostics_ = d;
    if (sim_->kernelConfig().variant == NbodyVariant::Tree) {
        constexpr double kAccuracyEverySeconds = 3;  // 256 x N interactions: cheap, not free
        const double now =
            std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch())
                .count();
        // Again at once after theta changed: the error is theta's (it stayed as it was).
        if (!accuracyInFlight_ && (now - lastAccuracyAt_ >= kAccuracyEverySeconds ||
                                   lastAccuracyTheta_ != sim_->params().theta)) {
            lastAccuracyAt_ = now;
            accuracyInFlightTheta_ = sim_->params().theta;
            // One device: read back without waiting (pollDiagnostics); split over devices the
            // whole tree pass it needs waits, as before.
            accuracyInFlight_ = sim_->beginForceAccuracy(256);
            if (!accuracyInFlight_) {
                lastAccuracy_ = sim_->forceAccuracy(256);
                lastAccuracyTheta_ = accuracyInFlightTheta_;
            }
        }
    }
    haveDiagnostics_ = true;
    energyDrift_.add(float(lastDiagnostics_.relativeEnergyDrift));
    const double* p = lastDiagnostics_.momentum;
    momentum_.add(float(std::sqrt(p[0] * p[0] + p[1] * p[1] + p[2] * p[2])));
    if (!lastDiagnostics_.finite() && !nonFiniteReported_) {
        nonFiniteReported_ = true;
        paused_ = true;
        app_.error("N-body paused: " + lastDiagnostics_.message());
    }
}

void NbodyDemo::recordFrame(const FrameInfo& frame) {
    char name[32];
    std::snprintf(name, sizeof name, "frame_%06lld.png", recordIndex_);
    const std::string path = (std::filesystem::path(recordDir_) / name).string();
    try {
        saveFramebufferPng(path, frame.framebufferWidth, frame.framebufferHeight);
        ++recordIndex_;
    } catch (const Error& e) {
        app_.error(std::string("recording stopped: ") + e.what());
        recordDir_.clear();
    }
}

std::string NbodyDemo::setupDescription() {
    std::string config = "?";
    try {
        if (!sim_->forceKernelReady()) throw Error("not built");  // quitting mid-tune: no tune now
        config = describe(sim_->effectiveKernelConfig());
        if (sim_->kernelConfig().variant == NbodyVariant::Auto) config = "auto:" + config;
    } catch (const std::exception&) {
    }
    for (char& c : config)
        if (c == ' ') c = ',';
    return "N=" + std::to_string(n_) + " kernel=" + config +
           " integrator=" + integratorName(sim_->integrator()) +
           " interop=" + interopPathName(choice_.path) + " device=\"" + cc_->info().name + "\"";
}

// ---- input ------------------------------------------------------------------------------------

bool NbodyDemo::onKey(int key, int /*mods*/) {
    switch (key) {
        case GLFW_KEY_SPACE:
            paused_ = !paused_;
            return true;
        case GLFW_KEY_S:
            paused_ = true;
            ++pendingSteps_;
            return true;
        case GLFW_KEY_R:
            resetScene();
            return true;
        case GLFW_KEY_C:
            camera_.reset();
            return true;
        case GLFW_KEY_1:
            style_.colour = ParticleColour::Speed;
            return true;
        case GLFW_KEY_2:
            style_.colour = ParticleColour::Mass;
            return true;
        case GLFW_KEY_3:
            style_.colour = ParticleColour::Fixed;
            return true;
        // NVIDIA's nbody sample: [ and ] cycle the scenes, D toggles fp64.
        case GLFW_KEY_LEFT_BRACKET:
        case GLFW_KEY_RIGHT_BRACKET: {
            const auto& all = allNbodyPresets();
            std::size_t i = 0;
            while (i < all.size() && all[i].preset != preset_)
                ++i;
            const std::size_t n = all.size();
            const std::size_t next = key == GLFW_KEY_RIGHT_BRACKET ? (i + 1) % n : (i + n - 1) % n;
            app_.attempt([&] { set("preset", all[next].name); });
            return true;
        }
        case GLFW_KEY_D: {
            const bool fp64 = sim_ && sim_->precision() == NbodyPrecision::Double;
            if (app_.attempt([&] { set("precision", fp64 ? "float" : "double"); }, "D (fp64): "))
                app_.notice(fp64 ? "precision: fp32" : "precision: fp64");
            return true;
        }
        default:
            return false;
    }
}

void NbodyDemo::onPointer(const PointerEvent& e) {
    if (e.type == PointerEvent::Type::Scroll) {
        camera_.zoom(e.dy);
        return;
    }
    if (e.type != PointerEvent::Type::Move || e.button < 0) return;
    const bool pan = e.button == GLFW_MOUSE_BUTTON_RIGHT || e.button == GLFW_MOUSE_BUTTON_MIDDLE ||
                     (e.button == GLFW_MOUSE_BUTTON_LEFT && (e.mods & GLFW_MOD_SHIFT));
    if (pan) {
        // The point under the cursor follows it: motion and height in the same pixels.
        camera_.pan(e.dx, e.dy, viewportHeight_);
    } else if (e.button == GLFW_MOUSE_BUTTON_LEFT) {
        // Per window unit, so a turn takes the same hand movement on a HiDPI display.
        camera_.rotate(e.dx / e.pixelsPerUnit, e.dy / e.pixelsPerUnit);
    }
}

void NbodyDemo::onDrop(const std::string& path) {
    app_.attempt([&] { set("load", path); });
}

std::vector<std::pair<std::string, std::string>> NbodyDemo::keyHelp() const {
    return {{"Space", "pause / run"},
            {"S", "single step (pauses)"},
            {"R", "reset the scene"},
            {"C", "reset the camera"},
            {"1 / 2 / 3", "colour by speed / mass / fixed"},
            {"[ / ]", "previous / next scene"},
            {"D", "toggle fp64 (where the variant has it)"},
            {"Left drag", "rotate"},
            {"Right drag, Shift+drag", "pan"},
            {"Wheel", "zoom"},
            {"Drop a file", "load a snapshot (clviz or TIPSY)"}};
}

// ---- live reload (app/live_reload.hpp) ---------------------------------------------------------

void NbodyDemo::kernelsReloaded() {
    finishJob(true);  // the job's kernels are replaced once it is done with them
    if (system_)
        system_->forEachDevice([](NbodySimulation& s) {
            s.reloadKernels();
        });  // bodies, parameters, camera and interop stay
}

void NbodyDemo::shadersReloaded() {
    renderer_ = std::make_unique<ParticleRenderer>();  // a throw leaves the old one in place
}

Demo::ReferenceResult NbodyDemo::checkReference() {
    finishJob(true);
    if (!sim_) return {};
    const ReferenceCheck r = checkNbodyAgainstReference(*sim_, system_->readBodies(),
                                                        system_->readAccelerationsDouble());
    return {r.ok, r.message};
}

}  // namespace clviz
