// NbodyDemo::set: the command interface (--set, --set-at, the sugar flags, test hooks). Every
// value is checked; a bad one returns a sentence that says what is accepted.
#include <charconv>
#include <cmath>
#include <filesystem>
#include <system_error>

#include "app/nbody/demo.hpp"
#include "common/error.hpp"
#include "compute/core/cl_error.hpp"
#include "compute/core/compute_context.hpp"
#include "compute/interop/external_memory.hpp"
#include "compute/nbody/snapshot.hpp"

namespace clviz {

namespace {

long long parseInteger(const std::string& key, const std::string& text, long long lo,
                       long long hi) {
    long long v = 0;
    const char* end = text.data() + text.size();
    auto [ptr, ec] = std::from_chars(text.data(), end, v);
    if (text.empty() || ec != std::errc() || ptr != end)
        throw Error(key + " expects an integer, got '" + text + "'");
    if (v < lo || v > hi)
        throw Error(key + " must be in " + std::to_string(lo) + " .. " + std::to_string(hi) +
                    ", got " + text);
    return v;
}

float parseReal(const std::string& key, const std::string& text, double lo, double hi,
                bool openLow = false) {
    double v = 0;
    std::size_t used = 0;
    try {
        v = std::stod(text, &used);
    } catch (const std::exception&) {
        used = 0;
    }
    if (text.empty() || used != text.size() || !std::isfinite(v))
        throw Error(key + " expects a number, got '" + text + "'");
    if (v < lo || v > hi || (openLow && v == lo))
        throw Error(key + " must be in " + (openLow ? "(" : "[") + std::to_string(lo) + ", " +
                    std::to_string(hi) + "], got " + text);
    return float(v);
}

bool parseSwitch(const std::string& key, const std::string& text) {
    if (text == "on" || text == "1" || text == "true" || text == "yes") return true;
    if (text == "off" || text == "0" || text == "false" || text == "no") return false;
    throw Error(key + " expects on or off, got '" + text + "'");
}

}  // namespace

std::string NbodyDemo::settingsHelp() {
    return "interop=auto|gl-sharing|host-copy|external-memory, n=1..67108864, "
           "preset=cube|shell|plummer|disk|collision, seed=INT, "
           "variant=auto|naive|tiled|unrolled|vectorized|async-copy|small-n|tree, theta=0..2, "
           "wg=0|POW2, "
           "unroll=0|POW2, "
           "bpi=0|1|2|4|8, split=0..32, integrator=taylor|leapfrog, precision=float|double, "
           "dt=X, softening=X, damping=X, steps=1..1000, pause=on|off, step=COUNT, reset=1, "
           "colour=speed|mass|fixed, colourmap=inferno|viridis|ice, size=X, brightness=X, "
           "diagnostics=FRAMES (0 off), diagnostics-panel=on|off, latency=0|1, record=DIR|off, "
           "save=FILE, load=FILE, camera=reset, autotune=SECONDS, assume-gl-sharing=on|off, "
           "assume-external-memory=on|off (test hooks)";
}

std::string NbodyDemo::set(const std::string& key, const std::string& value) {
    try {
        return applySetting(key, value);
    } catch (const Error& e) {
        return e.what();
    } catch (const cl::Error& e) {
        return describeClError(e.what(), e.err());
    }
}

std::string NbodyDemo::applySetting(const std::string& key, const std::string& value) {
    if (!sim_) return "the N-body demo is not running";
    if (key == "interop") {
        request_ = parseInteropRequest(value);
        applyInterop();  // a path that fails to set up falls back and reports it itself
        if (fallback_.empty()) {
            if (request_ != InteropRequest::Auto &&
                std::string(interopPathName(choice_.path)) != interopRequestName(request_))
                app_.error("N-body interop: " + choice_.reason);  // forced but unavailable
            else
                app_.notice("N-body interop: " + choice_.reason);
        }
    } else if (key == "interop-panel") {
        if (value != "open") throw Error("interop-panel expects open");
        showInterop_ = openInterop_ = true;
    } else if (key == "assume-gl-sharing") {
        // Test hook: claims the device and context can share with GL, so that the run-time
        // failure of gl-sharing (e.g. clCreateFromGLBuffer refused) and the fallback to host
        // copy can be exercised on machines without sharing.
        const bool on = parseSwitch(key, value);
        caps_.clGlSharing = on || detectClInteropCaps(cc_->info().extensions).clGlSharing;
        caps_.clContextSharesGl = on || app_.clContextSharesGl;
    } else if (key == "assume-external-memory") {
        // Test hook: claims CL, GL and Vulkan can share memory, so that a refused set-up of the
        // external-memory path and its fallback to host copy run on machines without it.
        if (parseSwitch(key, value)) {
            caps_.clExternalMemoryFd = caps_.glMemoryObjectFd = caps_.externalMemoryDevice = true;
        } else {
            caps_ = detectClInteropCaps(cc_->info().extensions);
            detectGlInteropCaps(caps_);
            caps_.clContextSharesGl = app_.clContextSharesGl;
            probeExternalMemory(*cc_, caps_);
        }
    } else if (key == "n") {
        n_ = std::size_t(parseInteger(key, value, 1, (long long)kMaxBodies));
        rebuild();
    } else if (key == "preset") {
        preset_ = parsePreset(value);
        const NbodyPresetInfo& info = presetInfo(preset_);
        NbodyParams p = sim_->params();
        p.dt = info.dt;
        p.softening = info.softening;
        sim_->setParams(p);
        rebuild();
    } else if (key == "seed") {
        seed_ = std::uint64_t(parseInteger(key, value, 0, (1LL << 62)));
        rebuild();
    } else if (key == "variant") {
        sim_->setVariant(parseVariant(value));
    } else if (key == "wg") {
        sim_->setWorkGroupSize(int(parseInteger(key, value, 0, 1 << 16)));
    } else if (key == "unroll") {
        sim_->setUnroll(int(parseInteger(key, value, 0, 1 << 16)));
    } else if (key == "bpi") {
        sim_->setBodiesPerItem(int(parseInteger(key, value, 0, 64)));
    } else if (key == "split") {
        sim_->setSplit(int(parseInteger(key, value, 0, 1024)));
    } else if (key == "integrator") {
        sim_->setIntegrator(parseIntegrator(value));
    } else if (key == "precision") {
        if (value != "float" && value != "double")
            throw Error("precision expects float or double, got '" + value + "'");
        sim_->setPrecision(value == "double" ? NbodyPrecision::Double : NbodyPrecision::Float);
        needsPublish_ = true;
    } else if (key == "dt") {
        NbodyParams p = sim_->params();
        p.dt = parseReal(key, value, 0, 10, true);
        sim_->setParams(p);
    } else if (key == "theta") {
        NbodyParams p = sim_->params();
        p.theta = parseReal(key, value, 0, 2);
        sim_->setParams(p);
    } else if (key == "softening") {
        NbodyParams p = sim_->params();
        p.softening = parseReal(key, value, 0, 100);
        sim_->setParams(p);
    } else if (key == "damping") {
        NbodyParams p = sim_->params();
        p.damping = parseReal(key, value, 0, 1, true);
        sim_->setParams(p);
    } else if (key == "steps") {
        stepsPerFrame_ = int(parseInteger(key, value, 1, 1000));
    } else if (key == "pause") {
        paused_ = parseSwitch(key, value);
    } else if (key == "diagnostics-panel") {
        showDiagnostics_ = parseSwitch(key, value);
    } else if (key == "step") {
        pendingSteps_ += int(parseInteger(key, value, 1, 100000));
        paused_ = true;
    } else if (key == "reset") {
        rebuild();
    } else if (key == "colour" || key == "color") {
        style_.colour = parseParticleColour(value);
        needsPublish_ = needsPublish_ || wantVelocities();
    } else if (key == "colourmap" || key == "colormap") {
        style_.map = parseColourMap(value);
    } else if (key == "size") {
        sizeFactor_ = parseReal(key, value, 0, 100, true);
    } else if (key == "brightness") {
        brightness_ = parseReal(key, value, 0, 100, true);
    } else if (key == "diagnostics") {
        diagnosticsEvery_ = int(parseInteger(key, value, 0, 1000000));
        framesSinceDiagnostics_ = diagnosticsEvery_;
    } else if (key == "latency") {
        latency_ = int(parseInteger(key, value, 0, 1));
        if (positions_) positions_->setLatency(latency_);
        if (velocities_) velocities_->setLatency(latency_);
    } else if (key == "record") {
        if (value.empty() || value == "off") {
            recordDir_.clear();
        } else {
            std::error_code ec;
            std::filesystem::create_directories(value, ec);
            if (ec || !std::filesystem::is_directory(value))
                throw Error("record: cannot create directory '" + value + "'" +
                            (ec ? ": " + ec.message() : ""));
            recordDir_ = value;
            recordIndex_ = 0;
        }
    } else if (key == "save") {
        NbodySnapshot s;
        s.bodies = sim_->readBodies();
        s.time = sim_->time();
        s.dt = sim_->params().dt;
        s.softening = sim_->params().softening;
        saveSnapshot(value, s);
        app_.notice("N-body state saved to " + value + " (" + std::to_string(s.bodies.size()) +
                    " bodies)");
    } else if (key == "load") {
        NbodySnapshot s = loadSnapshot(value);
        if (s.bodies.empty()) throw Error(value + " holds no bodies");
        NbodyParams p = sim_->params();
        if (s.dt > 0) p.dt = s.dt;
        if (s.softening > 0) p.softening = s.softening;
        sim_->setParams(p);
        float radius = 0;
        std::vector<float> r;
        r.reserve(s.bodies.size());
        for (const Body& b : s.bodies)
            r.push_back(std::sqrt(b.pos.x * b.pos.x + b.pos.y * b.pos.y + b.pos.z * b.pos.z));
        auto p95 = r.begin() + std::ptrdiff_t(r.size() * 95 / 100);
        std::nth_element(r.begin(), p95, r.end());
        radius = std::isfinite(*p95) && *p95 > 0 ? *p95 : 1.0f;
        loadBodies(s.bodies, radius);
        loadedScene_ = std::filesystem::path(value).filename().string() + " (" + s.format +
                       ", N = " + std::to_string(n_) + ")";
        app_.notice("loaded " + value + " (" + s.format + ", " + std::to_string(n_) + " bodies)");
    } else if (key == "camera") {
        if (value != "reset") throw Error("camera expects reset, got '" + value + "'");
        camera_.reset();
    } else if (key == "autotune") {
        const double seconds = parseReal(key, value, 0, 600, true);
        // Under auto: tune the variant it runs (auto then picks again with the new figure).
        const NbodyVariant v = sim_->kernelConfig().variant == NbodyVariant::Auto
                                   ? sim_->effectiveKernelConfig().variant
                                   : sim_->kernelConfig().variant;
        NbodyAutotuneResult r = sim_->autotune(v, seconds);
        autotuneLog_ = r.log;
        app_.notice("auto-tune: best " + describe(r.best) + " (" + std::to_string(r.bestMs) +
                    " ms per force pass, " + std::to_string(r.candidates) + " candidates)");
    } else {
        return "unknown N-body setting '" + key + "' (known: " + settingsHelp() + ")";
    }
    return "";
}

}  // namespace clviz
