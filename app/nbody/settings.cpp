// NbodyDemo::set: the command interface (--set, --set-at, the sugar flags, test hooks), as one
// table of keys. Every value is checked; a bad one returns a sentence that says what is accepted.
// --help, the error for an unknown key and the README's table are written from the same rows.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <system_error>

#include "app/nbody/demo.hpp"
#include "app/nbody/report_progress.hpp"
#include "common/error.hpp"
#include "common/flag_table.hpp"
#include "common/parse.hpp"
#include "common/quoted_path.hpp"
#include "compute/core/compute_context.hpp"
#include "compute/core/device_select.hpp"
#include "compute/interop/external_memory.hpp"
#include "compute/nbody/param_ranges.hpp"
#include "compute/nbody/snapshot.hpp"

namespace clviz {

namespace {

// "a|b|c" from a list of names, for a row's accepted values.
template <class List, class NameOf>
std::string alternatives(const List& list, NameOf nameOf) {
    std::string out;
    for (const auto& item : list)
        (out.empty() ? out : out += '|') += nameOf(item);
    return out;
}

std::string presetNames() {
    return alternatives(allNbodyPresets(), [](const NbodyPresetInfo& p) { return p.name; });
}

using Table = SettingTable<NbodyDemo>;
using Value = const std::string&;

}  // namespace

std::vector<DemoFlag> nbodyDemoFlags() {
    return {{"--n", "N", "number of particles, 1-" + std::to_string(kMaxBodies), "n",
             [](const std::string& v) {
                 parseWholeNumberFlag("--n", v, 1, static_cast<long long>(kMaxBodies));
             }},
            {"--preset", "NAME", "initial scene", "preset", {}},
            {"--devices",
             "SET",
             "split the bodies over a device set: all, gpu, cpu, 0,1 (devices of --platform) or "
             "P.D,P.D as --list-devices numbers them",
             "devices",
             {},
             DemoFlag::Goes::Setting,
             "",
             [](const std::vector<PlatformInfo>& platforms, const DeviceRequest& request,
                const std::string& v) { chooseDevices(platforms, v, request.platform); }},
            {"--viewer",
             "",
             "with --mpi: rank 0 opens the viewer and steers the run (every viewer option "
             "applies); the other ranks compute",
             "viewer",
             {},
             DemoFlag::Goes::Option,
             "--mpi"},
            {"--mpi-timeout", "S",
             "with --mpi: end the run when one MPI exchange takes longer [60]", "mpi-timeout",
             [](const std::string& v) {
                 const auto s = parseNumber(v);
                 if (!s || !(*s > 0) || *s > 86400)
                     throw UsageError("--mpi-timeout expects seconds (0 < S <= 86400), got " +
                                      quotedPath(v));
             },
             DemoFlag::Goes::Option, "--mpi"}};
}

const Table& NbodyDemo::settings() {
    // A physical parameter: a number in [lo, hi] ((lo, hi] when openLow); never resets the state.
    // The range comes from compute/nbody/param_ranges.hpp, which the snapshot loader checks too.
    auto param = [](float NbodyParams::*field, const NbodyParamRange& r) {
        return [=](NbodyDemo& d, Value v) {
            NbodyParams p = d.sim_->params();
            p.*field = float(settingNumber(r.key, v, r.lo, r.hi, r.openLow));
            d.system_->setParams(p);
        };
    };
    static const Table table = {
        {{"devices", "SET",
          "Splits the bodies over SET (--devices syntax; the OpenCL panel's choice): the system "
          "restarts, the bodies, view and other settings kept"},
         [](NbodyDemo& d, Value v) { d.setDevices(v); }},
        {{"tree-integrate", treeIntegrationChoiceText(),
          "Split tree (devices): who kicks and drifts the bodies. owners: each device its slice, "
          "then the positions are exchanged; replicated: every device every body, no position "
          "exchange (identical devices only); auto: replicated where the devices are identical. "
          "MPI ranks always use auto"},
         [](NbodyDemo& d, Value v) {
             const NbodyTreeIntegration mode = parseTreeIntegration(v);
             d.system_->setTreeIntegration(mode);  // refuses replicated on mixed devices
             d.treeIntegration_ = mode;
         }},
        {{"tree-build", "whole|split",
          "Split tree (devices): whole: every device builds the whole tree; split: each sorts and "
          "builds only its own domain and the devices exchange the cells each other's walk opens "
          "(the same forces; the faster on four GPUs from 16M bodies on). MPI ranks always build "
          "the whole tree"},
         [](NbodyDemo& d, Value v) {
             d.treeSplitBuild_ = settingChoice("tree-build", v, {"whole", "split"}) == 1;
             d.system_->setTreeSplitBuild(d.treeSplitBuild_);
         }},
        {{"interop", "auto|gl-sharing|host-copy|external-memory",
          "How positions reach OpenGL; a path that is unavailable falls back to host copy"},
         [](NbodyDemo& d, Value v) { d.setInterop(v); }},
        {{"interop-panel", "open", "Opens the Interop panel"},
         [](NbodyDemo& d, Value v) {
             if (v != "open") throw Error("interop-panel expects open");
             d.showInterop_ = d.openInterop_ = true;
         }},
        {{"n", "1.." + std::to_string(kMaxBodies), "Number of bodies (rebuilds the scene)"},
         [](NbodyDemo& d, Value v) {
             d.n_ = std::size_t(settingInteger("n", v, 1, (long long)kMaxBodies));
             d.rebuild();
         }},
        {{"preset", presetNames(),
          "Initial scene (also sets dt, softening and theta-far to suit it)"},
         [](NbodyDemo& d, Value v) {
             d.preset_ = parsePreset(v);
             const NbodyPresetInfo& info = presetInfo(d.preset_);
             NbodyParams p = d.sim_->params();
             p.dt = info.dt;
             p.softening = info.softening;
             p.thetaFar = info.thetaFar;
             d.system_->setParams(p);
             d.rebuild();
         }},
        {{"seed", "0..4611686018427387904",
          "Random seed of the scene: the same preset, N and seed give the same bodies"},
         [](NbodyDemo& d, Value v) {
             d.seed_ = std::uint64_t(settingInteger("seed", v, 0, (1LL << 62)));
             d.rebuild();
         }},
        {{"variant", nbodyVariantChoiceText(),
          "Force kernel (auto: the fastest the auto-tune measured)"},
         [](NbodyDemo& d, Value v) { d.system_->setVariant(parseVariant(v)); }},
        {{"wg", "0|POW2", "Work-group size = bodies per tile (0: the default for the device)"},
         [](NbodyDemo& d, Value v) {
             const int wg = int(settingInteger("wg", v, 0, 1 << 16));
             d.system_->forEachDevice([&](NbodySimulation& s) { s.setWorkGroupSize(wg); });
         }},
        {{"unroll", "0|POW2",
          "Inner-loop unroll factor of the tiled kernels that take one (0: default)"},
         [](NbodyDemo& d, Value v) {
             const int unroll = int(settingInteger("unroll", v, 0, 1 << 16));
             d.system_->forEachDevice([&](NbodySimulation& s) { s.setUnroll(unroll); });
         }},
        {{"bpi", "0|1|2|4|8", "Bodies each work-item accumulates (0: default)"},
         [](NbodyDemo& d, Value v) {
             const int bpi = int(settingInteger("bpi", v, 0, 64));
             d.system_->forEachDevice([&](NbodySimulation& s) { s.setBodiesPerItem(bpi); });
         }},
        {{"split", "0..32",
          "small-n: work-items sharing one body's interactions (0: fill the device)"},
         [](NbodyDemo& d, Value v) {
             const int split = int(settingInteger("split", v, 0, 1024));
             d.system_->forEachDevice([&](NbodySimulation& s) { s.setSplit(split); });
         }},
        {{"integrator", "taylor|leapfrog",
          "taylor: the course's original update; leapfrog: kick-drift-kick (energy stays bounded)"},
         [](NbodyDemo& d, Value v) { d.system_->setIntegrator(parseIntegrator(v)); }},
        {{"precision", "float|double", "Arithmetic of the simulation (double needs fp64)"},
         [](NbodyDemo& d, Value v) {
             const auto i = settingChoice("precision", v, {"float", "double"});
             d.system_->setPrecision(i == 1 ? NbodyPrecision::Double : NbodyPrecision::Float);
             d.needsPublish_ = true;
         }},
        {{"dt", kDtRange.accepted(), "Time step"}, param(&NbodyParams::dt, kDtRange)},
        {{"theta", kThetaRange.accepted(),
          "Tree variant: opening angle; a cell counts as one body (with its quadrupole) when its "
          "size is below theta times its distance; 0 = the exact direct sum. The Diagnostics "
          "panel shows the force error it costs"},
         param(&NbodyParams::theta, kThetaRange)},
        {{"theta-far", kThetaFarRange.accepted(),
          "Tree variant: far-field angle; cells further than the walk group's and their own size "
          "over theta-far are summed once per group as a Taylor expansion about its centre "
          "instead of per body: faster on large systems, a little less accurate; 0 = off"},
         param(&NbodyParams::thetaFar, kThetaFarRange)},
        {{"softening", kSofteningRange.accepted(), "Softening length epsilon"},
         param(&NbodyParams::softening, kSofteningRange)},
        {{"damping", kDampingRange.accepted(),
          "Velocities are multiplied by this once per step; 1 = none"},
         param(&NbodyParams::damping, kDampingRange)},
        {{"steps", "1..1000", "Simulation steps per frame"},
         [](NbodyDemo& d, Value v) {
             d.stepsPerFrame_ = int(settingInteger("steps", v, 1, 1000));
         }},
        {{"pause", "on|off", "Stops or resumes the simulation"},
         [](NbodyDemo& d, Value v) { d.paused_ = settingOnOff("pause", v); }},
        {{"step", "1..100000", "Pauses, then runs that many steps"},
         [](NbodyDemo& d, Value v) {
             d.pendingSteps_ += int(settingInteger("step", v, 1, 100000));
             d.paused_ = true;
         }},
        {{"reset", "1", "Rebuilds the scene from its preset"},
         [](NbodyDemo& d, Value) { d.rebuild(); }},
        {{"colour", "speed|mass|fixed", "What the particle colour shows", {"color"}},
         [](NbodyDemo& d, Value v) {
             d.style_.colour = parseParticleColour(v);
             d.needsPublish_ = d.needsPublish_ || d.wantVelocities();
         }},
        {{"colourmap", "inferno|viridis|ice", "Colour map for speed and mass", {"colormap"}},
         [](NbodyDemo& d, Value v) { d.style_.map = parseColourMap(v); }},
        {{"particles", "auto|splat|sprites",
          "How bodies are drawn: splat (one pixel each, then a blur per sprite size: the "
          "sprites' look at a fraction of the fill), sprites (a soft disc of pixels each) or auto "
          "(splat on a GPU, sprites on a CPU rasterizer such as llvmpipe)"},
         [](NbodyDemo& d, Value v) { d.style_.draw = parseParticleDraw(v); }},
        {{"size", "X (0 < X <= 100)", "Particle size factor"},
         [](NbodyDemo& d, Value v) {
             d.sizeFactor_ = float(settingNumber("size", v, 0, 100, true));
         }},
        {{"brightness", "X (0 < X <= 100)", "Particle brightness factor"},
         [](NbodyDemo& d, Value v) {
             d.brightness_ = float(settingNumber("brightness", v, 0, 100, true));
         }},
        {{"diagnostics", "0..1000000",
          "Energy, momentum and NaN check every that many frames (0: off); never waits: the tree's "
          "potential in O(N), else the O(N^2) sum in slices over frames"},
         [](NbodyDemo& d, Value v) {
             d.diagnosticsEvery_ = int(settingInteger("diagnostics", v, 0, 1000000));
             d.framesSinceDiagnostics_ = d.diagnosticsEvery_;
         }},
        {{"diagnostics-panel", "on|off", "Shows or hides the Diagnostics panel"},
         [](NbodyDemo& d, Value v) { d.showDiagnostics_ = settingOnOff("diagnostics-panel", v); }},
        {{"latency", "0|1", "Frames the drawing may lag the simulation (1: overlap them)"},
         [](NbodyDemo& d, Value v) {
             d.latency_ = int(settingInteger("latency", v, 0, 1));
             if (d.positions_) d.positions_->setLatency(d.latency_);
             if (d.velocities_) d.velocities_->setLatency(d.latency_);
         }},
        {{"take-turns", "on|off",
          "GL and CL take turns on the GPU where the interop path orders them there (external "
          "memory with semaphores); off lets them overlap, and the GPU time-slices"},
         [](NbodyDemo& d, Value v) { d.takeTurns_ = settingOnOff("take-turns", v); }},
        {{"take-turns-at", "present|drawn",
          "Where take-turns enqueues the next steps: once the frame and GUI are drawn (drawn), so "
          "the kernels run while the window system copies the frame, or after the swap "
          "(present)"},
         [](NbodyDemo& d, Value v) {
             d.turnAtDrawn_ = settingChoice("take-turns-at", v, {"present", "drawn"}) == 1;
         }},
        {{"record", "DIR|off",
          "Writes every frame as a numbered PNG into DIR, numbered on from the highest frame "
          "already there (never overwrites)"},
         [](NbodyDemo& d, Value v) { d.setRecordDir(v); }},
        {{"save", "FILE", "Saves the bodies as a snapshot"},
         [](NbodyDemo& d, Value v) { d.saveState(v); }},
        {{"load", "FILE", "Loads bodies from a snapshot (clviz or TIPSY)"},
         [](NbodyDemo& d, Value v) { d.loadState(v); }},
        {{"compare", "run",
          "Times every force variant at the current N, one per frame (the Timings panel's "
          "Compare variants)"},
         [](NbodyDemo& d, Value v) {
             if (v != "run") throw Error("compare expects run, got " + quotedPath(v));
             d.startComparison();
             d.showTimings_ = true;
         }},
        {{"camera", "reset", "Frames the scene again"},
         [](NbodyDemo& d, Value v) {
             if (v != "reset") throw Error("camera expects reset, got " + quotedPath(v));
             d.camera_.reset();
         }},
        {{"autotune", "SECONDS (0 < S <= 600)",
          "Times launch configurations of the running variant, then uses the fastest"},
         [](NbodyDemo& d, Value v) { d.autotune(settingNumber("autotune", v, 0, 600, true)); }},
        {{"assume-gl-sharing", "on|off",
          "Test hook: claims CL-GL sharing, to exercise its failure and the fallback"},
         [](NbodyDemo& d, Value v) { d.assumeGlSharing(settingOnOff("assume-gl-sharing", v)); }},
        {{"assume-external-memory", "on|off",
          "Test hook: claims CL-GL-Vulkan memory sharing, to exercise its failure and the "
          "fallback"},
         [](NbodyDemo& d, Value v) {
             d.assumeExternalMemory(settingOnOff("assume-external-memory", v));
         }},
    };
    return table;
}

std::string NbodyDemo::settingsHelp() {
    return settingSummary(settings().docs());
}

void NbodyDemo::set(const std::string& key, const std::string& value) {
    finishJob(true);  // a setting applies to the state the running job leads to
    if (!sim_) throw Error("the N-body demo is not running");
    if (!settings().apply(*this, key, value))
        throw Error("unknown N-body setting '" + key +
                    "' (known: " + settingKeyList(settings().docs()) + ")");
}

void NbodyDemo::setInterop(const std::string& value) {
    request_ = parseInteropRequest(value);
    applyInterop();  // a path that fails to set up falls back and reports it itself
    if (!fallback_.empty()) return;
    if (request_ != InteropRequest::Auto &&
        std::string(interopPathName(choice_.path)) != interopRequestName(request_))
        app_.error("N-body interop: " + choice_.reason);  // forced but unavailable
    else
        app_.notice("N-body interop: " + choice_.reason);
}

// Test hook: claims the device and context can share with GL, so that the run-time failure of
// gl-sharing (e.g. clCreateFromGLBuffer refused) and the fallback to host copy can be exercised
// on machines without sharing.
void NbodyDemo::assumeGlSharing(bool on) {
    caps_.clGlSharing = on || detectClInteropCaps(cc_->info().extensions).clGlSharing;
    caps_.clContextSharesGl = on || app_.clContextSharesGl;
}

// Test hook: claims CL, GL and Vulkan can share memory, so that a refused set-up of the
// external-memory path and its fallback to host copy run on machines without it.
void NbodyDemo::assumeExternalMemory(bool on) {
    if (on) {
        caps_.clExternalMemoryFd = caps_.glMemoryObjectFd = caps_.externalMemoryDevice = true;
        return;
    }
    caps_ = detectClInteropCaps(cc_->info().extensions);
    detectGlInteropCaps(caps_);
    caps_.clContextSharesGl = app_.clContextSharesGl;
    probeExternalMemory(*cc_, caps_);
}

// One past the highest frame_NNNNNN.png in `dir` (0 for none).
static long long nextRecordIndex(const std::string& dir) {
    long long next = 0;
    std::error_code ec;
    for (const auto& entry : std::filesystem::directory_iterator(dir, ec)) {
        const std::string name = entry.path().filename().string();
        long long index = 0;
        int end = 0;
        if (name.size() == 16 &&
            std::sscanf(name.c_str(), "frame_%6lld.png%n", &index, &end) == 1 && end == 16)
            next = std::max(next, index + 1);
    }
    return next;
}

void NbodyDemo::setRecordDir(const std::string& value) {
    if (value.empty() || value == "off") {
        recordDir_.clear();
        return;
    }
    std::error_code ec;
    std::filesystem::create_directories(value, ec);
    if (ec || !std::filesystem::is_directory(value))
        throw Error("record: cannot create directory " + quotedPath(value) +
                    (ec ? ": " + ec.message() : ""));
    // Never overwrite: a new burst (switched on again, or another run into the same folder)
    // continues after the highest frame_NNNNNN.png already there, and says where it starts.
    recordIndex_ = nextRecordIndex(value);
    recordDir_ = value;
    char first[32];
    std::snprintf(first, sizeof first, "frame_%06lld.png", recordIndex_);
    app_.notice("recording every frame into " + quotedPath(value) + ", from " + first +
                (recordIndex_ > 0 ? " (the frames already there are kept)" : ""));
}

void NbodyDemo::saveState(const std::string& path) {
    NbodySnapshot s;
    s.bodies = system_->readBodies();
    s.time = sim_->time();
    s.dt = sim_->params().dt;
    s.softening = sim_->params().softening;
    saveSnapshot(path, s);
    app_.notice("N-body state saved to " + quotedPath(path) + " (" +
                std::to_string(s.bodies.size()) + " bodies)");
}

void NbodyDemo::loadState(const std::string& path) {
    NbodySnapshot s = loadSnapshot(path);
    if (s.bodies.empty()) throw Error(quotedPath(path) + " holds no bodies");
    NbodyParams p = sim_->params();
    if (s.dt > 0) p.dt = s.dt;
    if (s.softening > 0) p.softening = s.softening;
    system_->setParams(p);
    // Frame the bulk of the bodies: the 95th percentile of their distance from the origin.
    std::vector<float> r;
    r.reserve(s.bodies.size());
    for (const Body& b : s.bodies)
        r.push_back(std::sqrt(b.pos.x * b.pos.x + b.pos.y * b.pos.y + b.pos.z * b.pos.z));
    auto p95 = r.begin() + std::ptrdiff_t(r.size() * 95 / 100);
    std::nth_element(r.begin(), p95, r.end());
    const float radius = std::isfinite(*p95) && *p95 > 0 ? *p95 : 1.0f;
    loadBodies(s.bodies, radius);
    loadedScene_ = std::filesystem::path(path).filename().string() + " (" + s.format +
                   ", N = " + std::to_string(n_) + ")";
    app_.notice("loaded " + quotedPath(path) + " (" + s.format + ", " + std::to_string(n_) +
                " bodies)");
}

void NbodyDemo::autotune(double seconds) {
    auto result = std::make_shared<NbodyAutotuneResult>();
    NbodySimulation* sim = sim_;
    NbodySystem* system = system_.get();
    startJob(
        std::string("Auto-tuning ") + variantName(sim->kernelConfig().variant),
        [sim, system, seconds, result](JobProgress& progress) {
            NbodyProgressReports reports(*system, progress);
            // Under auto: tune the variant it runs (auto then picks again with the new figure).
            const NbodyVariant v = sim->kernelConfig().variant == NbodyVariant::Auto
                                       ? sim->effectiveKernelConfig().variant
                                       : sim->kernelConfig().variant;
            *result = sim->autotune(v, seconds);
        },
        [this, result] {
            const NbodyAutotuneResult& r = *result;
            autotuneLog_ = r.log;
            app_.notice("auto-tune: best " + describe(r.best) + " (" + std::to_string(r.bestMs) +
                        " ms per force pass, " + std::to_string(r.candidates) + " candidates)");
        },
        false);
}

}  // namespace clviz
