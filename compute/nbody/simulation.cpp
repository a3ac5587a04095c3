#include "compute/nbody/simulation.hpp"

#include <algorithm>
#include <bit>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <initializer_list>
#include <iomanip>
#include <mutex>
#include <sstream>

#include "common/error.hpp"
#include "compute/core/cl_error.hpp"
#include "compute/core/compute_context.hpp"
#include "compute/core/profiling.hpp"
#include "compute/core/program_cache.hpp"

namespace clviz {

// ---- names ------------------------------------------------------------------------------------

namespace {

struct VariantInfo {
    NbodyVariant variant;
    const char* name;
    const char* define;
    const char* description;
};

const VariantInfo kVariants[] = {
    {NbodyVariant::Naive, "naive", "VARIANT_NAIVE",
     "Each work-item reads every body straight from global memory."},
    {NbodyVariant::Tiled, "tiled", "VARIANT_TILED",
     "Tiles of bodies staged in local memory between barriers; plain inner loop (the seed)."},
    {NbodyVariant::Unrolled, "unrolled", "VARIANT_UNROLLED",
     "Tiled with a compile-time tile, the inner loop unrolled and several bodies per work-item."},
    {NbodyVariant::Vectorized, "vectorized", "VARIANT_VECTORIZED",
     "Structure-of-arrays tiles; float4 arithmetic handles 4 j-bodies per operation."},
    {NbodyVariant::AsyncCopy, "async-copy", "VARIANT_ASYNC_COPY",
     "Double-buffered tiles fetched with async_work_group_copy while the previous one is used."},
    {NbodyVariant::SmallN, "small-n", "VARIANT_SMALL_N",
     "Several work-items split each body's j-range and reduce in local memory: fills big GPUs "
     "at small N."},
};

const VariantInfo kAuto = {
    NbodyVariant::Auto, "auto", "",
    "Whichever variant and launch configuration the auto-tune measured fastest on this device for "
    "this N (re-picked when N changes)."};

const VariantInfo kTree = {
    NbodyVariant::Tree, "tree", "",
    "Barnes-Hut tree on the device: Morton sort, radix tree, quadrupole cells, group walk. "
    "O(N log N); theta sets the accuracy (0 = exact direct sum). Float only."};

const VariantInfo& info(NbodyVariant v) {
    for (const auto& i : kVariants)
        if (i.variant == v) return i;
    return v == NbodyVariant::Tree ? kTree : kAuto;
}

bool isPow2(long long v) {
    return v > 0 && (v & (v - 1)) == 0;
}
int floorPow2(std::size_t v) {
    return v == 0 ? 1 : static_cast<int>(std::bit_floor(std::min<std::size_t>(v, 1 << 30)));
}
std::size_t roundUp(std::size_t v, std::size_t m) {
    return (v + m - 1) / m * m;
}

bool usesTileBlocking(NbodyVariant v) {
    return v != NbodyVariant::Naive && v != NbodyVariant::Tiled;
}

// ---- auto-tune memory -------------------------------------------------------------------------
// Best configs per device, variant, precision and N (as log2 bucket), in memory and in
// ~/.cache/clviz/nbody-autotune.txt ("key<TAB>wg unroll bpi split ms" lines; later lines win).

std::filesystem::path autotuneFile() {
    const char* xdg = std::getenv("XDG_CACHE_HOME");
    const char* home = std::getenv("HOME");
    if (xdg && *xdg) return std::filesystem::path(xdg) / "clviz" / "nbody-autotune.txt";
    if (home && *home)
        return std::filesystem::path(home) / ".cache" / "clviz" / "nbody-autotune.txt";
    return {};
}

class AutotuneMemory {
  public:
    static AutotuneMemory& instance() {
        static AutotuneMemory m;
        return m;
    }
    bool find(const std::string& key, NbodyKernelConfig& out, double* ms = nullptr) {
        std::lock_guard lock(mutex_);
        loadOnce();
        auto it = best_.find(key);
        if (it == best_.end()) return false;
        out = it->second;
        if (ms) *ms = ms_[key];
        return true;
    }
    void store(const std::string& key, const NbodyKernelConfig& c, double ms) {
        std::lock_guard lock(mutex_);
        loadOnce();
        best_[key] = c;
        ms_[key] = ms;
        const auto path = autotuneFile();
        if (path.empty()) return;
        std::error_code ec;
        std::filesystem::create_directories(path.parent_path(), ec);
        std::ofstream out(path, std::ios::app);  // best effort: a read-only home is fine
        if (out)
            out << key << '\t' << c.workGroupSize << ' ' << c.unroll << ' ' << c.bodiesPerItem
                << ' ' << c.split << ' ' << ms << '\n';
    }

  private:
    void loadOnce() {
        if (loaded_) return;
        loaded_ = true;
        const auto path = autotuneFile();
        if (path.empty()) return;
        std::ifstream in(path);
        for (std::string line; std::getline(in, line);) {
            const auto tab = line.find('\t');
            if (tab == std::string::npos) continue;
            std::istringstream fields(line.substr(tab + 1));
            NbodyKernelConfig c;
            double ms = 0;
            if (fields >> c.workGroupSize >> c.unroll >> c.bodiesPerItem >> c.split &&
                isPow2(c.workGroupSize) && isPow2(c.unroll) && isPow2(c.bodiesPerItem) &&
                isPow2(c.split) && c.bodiesPerItem <= 8 && c.split <= 32) {
                best_[line.substr(0, tab)] = c;
                ms_[line.substr(0, tab)] = fields >> ms ? ms : 0.0;
            }
        }
    }
    std::mutex mutex_;
    bool loaded_ = false;
    std::map<std::string, NbodyKernelConfig> best_;
    std::map<std::string, double> ms_;  // the best config's force-pass time; 0 if unknown
};

}  // namespace

const std::vector<NbodyVariant>& allNbodyVariants() {
    static const std::vector<NbodyVariant> all = {NbodyVariant::Naive,     NbodyVariant::Tiled,
                                                  NbodyVariant::Unrolled,  NbodyVariant::Vectorized,
                                                  NbodyVariant::AsyncCopy, NbodyVariant::SmallN};
    return all;
}
const char* variantName(NbodyVariant v) {
    return info(v).name;
}
const char* variantDescription(NbodyVariant v) {
    return info(v).description;
}
std::vector<std::string> variantNames() {
    std::vector<std::string> names;
    for (const auto& i : kVariants)
        names.emplace_back(i.name);
    return names;
}
NbodyVariant parseVariant(const std::string& name) {
    std::string valid;
    for (const auto& i : kVariants) {
        if (name == i.name) return i.variant;
        valid += std::string(valid.empty() ? "" : ", ") + i.name;
    }
    if (name == kAuto.name) return NbodyVariant::Auto;
    if (name == kTree.name) return NbodyVariant::Tree;
    valid += std::string(", ") + kAuto.name + ", " + kTree.name;
    throw Error("unknown N-body kernel variant '" + name + "' (valid: " + valid + ")");
}

const char* integratorName(NbodyIntegrator i) {
    return i == NbodyIntegrator::Taylor ? "taylor" : "leapfrog";
}
const char* integratorDescription(NbodyIntegrator i) {
    return i == NbodyIntegrator::Taylor
               ? "The seed's update: x += v dt + a dt^2/2, v += a dt (energy drifts)."
               : "Kick-drift-kick leapfrog: symplectic, energy error stays bounded.";
}
NbodyIntegrator parseIntegrator(const std::string& name) {
    if (name == "taylor") return NbodyIntegrator::Taylor;
    if (name == "leapfrog") return NbodyIntegrator::Leapfrog;
    throw Error("unknown integrator '" + name + "' (valid: taylor, leapfrog)");
}

std::string describe(const NbodyKernelConfig& c) {
    std::string s = std::string(variantName(c.variant)) + " wg=" + std::to_string(c.workGroupSize);
    if (usesTileBlocking(c.variant))
        s += " unroll=" + std::to_string(c.unroll) + " bpi=" + std::to_string(c.bodiesPerItem);
    if (c.variant == NbodyVariant::SmallN) s += " split=" + std::to_string(c.split);
    return s;
}

double NbodyStepTimings::interactionsPerSecond() const {
    if (kernelMs <= 0) return 0;
    return static_cast<double>(bodies) * static_cast<double>(bodies) * steps / (kernelMs * 1e-3);
}
double NbodyStepTimings::gflops() const {
    return interactionsPerSecond() * 20.0 * 1e-9;
}

std::string NbodyDiagnostics::message() const {
    if (nonFiniteBodies == 0) return "";
    return std::to_string(nonFiniteBodies) +
           " bodies have NaN or Inf positions or velocities (first: body " +
           std::to_string(firstNonFinite) +
           "). The simulation blew up: reduce dt, raise the softening, or reset.";
}

// ---- kernels ----------------------------------------------------------------------------------

struct NbodySimulation::Built {
    cl::Kernel kernel;
    NbodyKernelConfig config;  // fully resolved
    std::size_t bodiesPerGroup = 1;
};

struct NbodySimulation::Kernels {
    std::map<std::string, Built> force;  // by build options
    Built* current = nullptr;            // for the current config, precision, N and softening
    cl::Kernel kickDrift[2], taylor[2], energy[2], toFloat, toDouble;
    int energyWg[2] = {0, 0};
};

namespace {

constexpr std::size_t kElementwiseWg = 64;

// CLVIZ_NBODY_DUMP=dir writes each force kernel's build options, build log (registers on NVIDIA
// with -cl-nv-verbose) and binary (PTX on NVIDIA) to dir/nbody-force-<hash>.*, for tuning.
void dumpBuild(const cl::Kernel& kernel, const std::string& options) {
    const char* dir = std::getenv("CLVIZ_NBODY_DUMP");
    if (!dir || !*dir) return;
    try {
        const auto program = kernel.getInfo<CL_KERNEL_PROGRAM>();
        const auto devices = program.getInfo<CL_PROGRAM_DEVICES>();
        const std::string base = std::string(dir) + "/nbody-force-" +
                                 std::to_string(std::hash<std::string>{}(options) % 1000000);
        std::ofstream(base + ".txt") << options << "\n"
                                     << program.getBuildInfo<CL_PROGRAM_BUILD_LOG>(devices.at(0));
        const auto binaries = program.getInfo<CL_PROGRAM_BINARIES>();
        if (!binaries.empty())
            std::ofstream(base + ".bin", std::ios::binary)
                .write(reinterpret_cast<const char*>(binaries[0].data()),
                       static_cast<std::streamsize>(binaries[0].size()));
    } catch (const std::exception&) {
        // Diagnostics only.
    }
}

std::size_t realBytes(NbodyPrecision p) {
    return p == NbodyPrecision::Double ? 8 : 4;
}

std::size_t localBytes(NbodyVariant v, int wg, NbodyPrecision p) {
    const std::size_t body = 4 * realBytes(p);
    switch (v) {
        case NbodyVariant::Naive:
            return 0;
        case NbodyVariant::AsyncCopy:
            return 2 * body * wg;
        default:
            return body * wg;
    }
}

// Defaults when nothing was asked for and nothing was tuned, from auto-tune runs on an NVIDIA
// H200 (GPU) and PoCL (CPU); see docs/benchmarks.md. Bodies per item shrink for small N so the
// GPU keeps enough work-groups (small-n gets there by splitting instead).
NbodyKernelConfig deviceDefaults(NbodyVariant v, bool gpu, std::size_t n, unsigned computeUnits) {
    NbodyKernelConfig c;
    c.variant = v;
    c.split = 0;
    switch (v) {
        case NbodyVariant::Naive:
        case NbodyVariant::Tiled:
            c.workGroupSize = gpu ? 256 : 64;
            c.unroll = c.bodiesPerItem = 1;
            return c;
        case NbodyVariant::Vectorized:
            c.workGroupSize = gpu ? 256 : 128;
            c.unroll = gpu ? 4 : 2;
            c.bodiesPerItem = gpu ? 4 : 2;
            break;
        case NbodyVariant::SmallN:
            c.workGroupSize = gpu ? 256 : 64;
            c.unroll = gpu ? 8 : 4;
            c.bodiesPerItem = gpu ? 4 : 1;
            return c;
        default:  // unrolled, async-copy
            c.workGroupSize = gpu ? 256 : 64;
            c.unroll = gpu ? 16 : 4;
            c.bodiesPerItem = gpu ? 4 : 2;
            break;
    }
    // 1.5 groups per compute unit: on the H200 two resident groups of 4 bodies per item beat
    // four of 2 at N = 2^18 (docs/benchmarks.md).
    const std::size_t want = 3 * std::max(1u, computeUnits) / 2;
    while (gpu && c.bodiesPerItem > 1 &&
           n / (static_cast<std::size_t>(c.workGroupSize) * c.bodiesPerItem) < want)
        c.bodiesPerItem /= 2;
    return c;
}

std::string autotuneKey(const DeviceInfo& d, NbodyVariant v, NbodyPrecision p, std::size_t n) {
    return d.name + "|" + d.driverVersion + "|" + variantName(v) + "|" +
           (p == NbodyPrecision::Double ? "fp64" : "fp32") + "|n2^" +
           std::to_string(std::bit_width(std::max<std::size_t>(n, 1) - 1));
}

}  // namespace

NbodySimulation::NbodySimulation(ComputeContext& cc)
    : cc_(cc), kernels_(std::make_unique<Kernels>()) {
    const bool gpu = cc_.info().kind == DeviceKind::Gpu;
    // small-n splits bodies only when N is too small to fill the device, so it is the best
    // all-round choice on GPUs; PoCL runs the float4 variant fastest.
    config_.variant = gpu ? NbodyVariant::SmallN : NbodyVariant::Vectorized;
    if (!gpu) autoBudget_ = 0.5;  // PoCL: small trials; keeps the viewer's start-up short
    auto& pc = cc_.programs();
    kernels_->kickDrift[0] = pc.kernel("nbody_integrate.cl", "nbody_kick_drift");
    kernels_->taylor[0] = pc.kernel("nbody_integrate.cl", "nbody_taylor");
}

NbodySimulation::~NbodySimulation() = default;

void NbodySimulation::reloadKernels() {
    auto& pc = cc_.programs();
    auto fresh = std::make_unique<Kernels>();
    fresh->kickDrift[0] = pc.kernel("nbody_integrate.cl", "nbody_kick_drift");
    fresh->taylor[0] = pc.kernel("nbody_integrate.cl", "nbody_taylor");
    if (kernels_->toFloat()) {  // fp64 was used: setPrecision() fetched these
        fresh->toFloat = pc.kernel("nbody_integrate.cl", "nbody_to_float", "-DREAL_DOUBLE");
        fresh->toDouble = pc.kernel("nbody_integrate.cl", "nbody_to_double", "-DREAL_DOUBLE");
        fresh->kickDrift[1] = pc.kernel("nbody_integrate.cl", "nbody_kick_drift", "-DREAL_DOUBLE");
        fresh->taylor[1] = pc.kernel("nbody_integrate.cl", "nbody_taylor", "-DREAL_DOUBLE");
    }
    kernels_ = std::move(fresh);  // force and diagnostics kernels are fetched again on next use
    accCurrent_ = false;          // the next force pass runs the new force kernel
}

bool NbodySimulation::supportsFp64() const {
    return cc_.info().hasExtension("cl_khr_fp64");
}

std::vector<int> NbodySimulation::workGroupSizeChoices() const {
    std::vector<int> out;
    for (std::size_t wg = 1; wg <= std::min<std::size_t>(cc_.info().maxWorkGroupSize, 1024);
         wg *= 2)
        out.push_back(static_cast<int>(wg));
    return out;
}

// Resolves 0 fields, applies device limits and builds (once per option set). The result is
// cached in kernels_->current until something it depends on changes.
NbodySimulation::Built& NbodySimulation::built() {
    if (kernels_->current) return *kernels_->current;
    const DeviceInfo& dev = cc_.info();
    const bool gpu = dev.kind == DeviceKind::Gpu;
    const bool pickAuto = config_.variant == NbodyVariant::Auto;
    const NbodyKernelConfig picked = pickAuto ? autoPick() : config_;
    const NbodyVariant v = picked.variant;
    NbodyKernelConfig c = deviceDefaults(v, gpu, n_, dev.computeUnits);
    NbodyKernelConfig tuned;
    if (pickAuto) {
        c = picked;
    } else {
        if (useAutotuneMemory_ &&
            AutotuneMemory::instance().find(autotuneKey(dev, v, precision_, n_), tuned)) {
            c.workGroupSize = tuned.workGroupSize;
            c.unroll = tuned.unroll;
            c.bodiesPerItem = tuned.bodiesPerItem;
            c.split = tuned.split;
        }
        if (config_.workGroupSize) c.workGroupSize = config_.workGroupSize;
        if (config_.unroll) c.unroll = config_.unroll;
        if (config_.bodiesPerItem) c.bodiesPerItem = config_.bodiesPerItem;
        if (config_.split) c.split = config_.split;
    }
    note_.clear();
    auto say = [&](const std::string& s) { note_ += (note_.empty() ? "" : "; ") + s; };

    const int deviceMax = floorPow2(std::min<std::size_t>(dev.maxWorkGroupSize, 1024));
    if (c.workGroupSize > deviceMax) {
        say("work-group size " + std::to_string(c.workGroupSize) +
            " exceeds the device limit; using " + std::to_string(deviceMax));
        c.workGroupSize = deviceMax;
    }
    const std::size_t localLimit = dev.localMemBytes ? dev.localMemBytes : 16384;
    while (c.workGroupSize > 1 && localBytes(v, c.workGroupSize, precision_) > localLimit) {
        say("work-group size " + std::to_string(c.workGroupSize) + " needs " +
            formatBytes(localBytes(v, c.workGroupSize, precision_)) +
            " of local memory (device has " + formatBytes(localLimit) + ")");
        c.workGroupSize /= 2;
    }
    if (v == NbodyVariant::Vectorized && c.workGroupSize < 4) {
        say("vectorized needs work-groups of at least 4");
        c.workGroupSize = std::min(4, deviceMax);
    }
    if (!usesTileBlocking(v)) c.unroll = c.bodiesPerItem = 1;
    if (v != NbodyVariant::SmallN) c.split = 1;

    for (;;) {
        const int wg = c.workGroupSize;
        if (v == NbodyVariant::SmallN) {
            if (c.split == 0) {
                // Smallest split that gives every compute unit >= 4 work-groups.
                const std::size_t want = 4 * std::max(1u, dev.computeUnits);
                c.split = 1;
                while (c.split < std::min(32, wg) &&
                       (n_ + (std::size_t(wg) / c.split) * c.bodiesPerItem - 1) /
                               ((std::size_t(wg) / c.split) * c.bodiesPerItem) <
                           want)
                    c.split *= 2;
            }
            c.split = std::min(c.split, wg);
        }
        const int walk = v == NbodyVariant::Vectorized ? wg / 4 : wg / c.split;
        if (usesTileBlocking(v) && c.unroll > walk) c.unroll = std::max(1, walk);

        // Fast math, as CUDA's -use_fast_math: native_rsqrt maps to the hardware approximation and
        // arithmetic may flush denormals (NVIDIA still emits the denormal-safe rsqrt for
        // native_rsqrt, hence NV_PTX_RSQRT below).
        std::string options = "-cl-fast-relaxed-math -cl-mad-enable -cl-denorms-are-zero -D";
        options += info(v).define;
        options += " -DWG=" + std::to_string(wg) + " -DUNROLL=" + std::to_string(c.unroll) +
                   " -DBPI=" + std::to_string(c.bodiesPerItem) +
                   " -DSPLIT=" + std::to_string(c.split);
        if (static_cast<double>(params_.softening) * params_.softening < 1e-30)
            options += " -DSELF_GUARD";
        if (precision_ == NbodyPrecision::Double)
            options += " -DREAL_DOUBLE";
        else if (!(ptxRefused_ & (1u << static_cast<unsigned>(v))) &&
                 dev.hasExtension("cl_nv_compiler_options"))
            options += " -DNV_PTX_RSQRT";
        // Groups above 256 need at most 65536 / wg registers per work-item: say so to NVIDIA's
        // compiler. (Its driver still reported CL_KERNEL_WORK_GROUP_SIZE = 256 for these kernels
        // on the H200, so they get clamped below; see docs/benchmarks.md.)
        if (wg > 256 && dev.hasExtension("cl_nv_compiler_options"))
            options += " -cl-nv-maxrregcount=" + std::to_string(std::min(255, 65536 / wg / 8 * 8));
        if (std::getenv("CLVIZ_NBODY_DUMP") && dev.hasExtension("cl_nv_compiler_options"))
            options += " -cl-nv-verbose";

        auto it = kernels_->force.find(options);
        if (it == kernels_->force.end()) {
            Built b;
            try {
                b.kernel = cc_.programs().kernel("nbody_force.cl", "nbody_force", options);
            } catch (const Error& e) {
                if (options.find("NV_PTX_RSQRT") == std::string::npos) throw;
                ptxRefused_ |= 1u << static_cast<unsigned>(v);  // use native_rsqrt from now on
                std::string why = e.what();
                const auto at = why.find("error:");
                why = at == std::string::npos ? "" : why.substr(at, why.find('\n', at) - at);
                say("inline PTX rsqrt refused by the compiler (" + why + "); using native_rsqrt");
                continue;
            }
            dumpBuild(b.kernel, options);
            const auto kmax = b.kernel.getWorkGroupInfo<CL_KERNEL_WORK_GROUP_SIZE>(cc_.device());
            // CLVIZ_NBODY_TRUST_REQD=1 (diagnostics only) launches the compiled size regardless.
            if (kmax < static_cast<std::size_t>(wg) && wg > 1 &&
                !std::getenv("CLVIZ_NBODY_TRUST_REQD")) {
                say("this kernel runs at most " + std::to_string(kmax) +
                    " work-items per group on " + dev.name + "; using " +
                    std::to_string(floorPow2(kmax)));
                c.workGroupSize = floorPow2(kmax);
                continue;  // WG is compiled in: rebuild at the smaller size
            }
            b.config = c;
            b.bodiesPerGroup = v == NbodyVariant::Naive
                                   ? wg
                                   : static_cast<std::size_t>(wg / c.split) * c.bodiesPerItem;
            it = kernels_->force.emplace(options, std::move(b)).first;
        }
        kernels_->current = &it->second;
        return it->second;
    }
}

NbodyKernelConfig NbodySimulation::effectiveKernelConfig() {
    if (config_.variant == NbodyVariant::Tree) {
        NbodyKernelConfig c;
        c.variant = NbodyVariant::Tree;
        c.workGroupSize = tree().groupSize();
        return c;
    }
    return built().config;
}

TreeForce& NbodySimulation::tree() {
    if (!tree_) tree_ = std::make_unique<TreeForce>(cc_);
    return *tree_;
}

void NbodySimulation::invalidateKernel() {
    kernels_->current = nullptr;
}

NbodyKernelConfig NbodySimulation::autoPick() {
    const DeviceInfo& dev = cc_.info();
    const bool gpu = dev.kind == DeviceKind::Gpu;
    if (n_ == 0)
        return deviceDefaults(gpu ? NbodyVariant::SmallN : NbodyVariant::Vectorized, gpu, n_,
                              dev.computeUnits);
    if (autoN_ == n_ && autoPrecision_ == precision_) return autoConfig_;
    // Naive and tiled are never the fastest; the four tile-blocking variants compete, each with
    // its best auto-tuned config (remembered from an earlier auto-tune, or tuned now).
    struct Entry {
        NbodyKernelConfig config;
        double ms;
        bool remembered;
    };
    std::vector<Entry> entries;
    for (NbodyVariant v : {NbodyVariant::Unrolled, NbodyVariant::Vectorized,
                           NbodyVariant::AsyncCopy, NbodyVariant::SmallN}) {
        Entry e{{}, 0, false};
        e.remembered =
            useAutotuneMemory_ &&
            AutotuneMemory::instance().find(autotuneKey(dev, v, precision_, n_), e.config, &e.ms) &&
            e.ms > 0;
        if (!e.remembered) {
            const NbodyAutotuneResult r = autotune(v, autoBudget_);
            if (!(r.bestMs > 0 && r.bestMs < 1e300)) continue;
            e.config = r.best;
            e.ms = r.bestMs;
        }
        e.config.variant = v;
        entries.push_back(e);
    }
    if (entries.empty())
        throw Error("auto: no N-body kernel variant could be built and timed on " + dev.name);
    std::sort(entries.begin(), entries.end(),
              [](const Entry& a, const Entry& b) { return a.ms < b.ms; });
    std::ostringstream why;
    why << std::setprecision(3) << "auto picked " << describe(entries[0].config)
        << ": the fastest force pass at N = " << n_ << " (";
    for (std::size_t i = 0; i < entries.size(); ++i)
        why << (i ? ", " : "") << variantName(entries[i].config.variant) << " " << entries[i].ms
            << " ms";
    const bool anyRemembered =
        std::any_of(entries.begin(), entries.end(), [](const Entry& e) { return e.remembered; });
    why << (anyRemembered ? "; auto-tune results remembered for this device and N)"
                          : "; auto-tuned just now)");
    autoN_ = n_;
    autoPrecision_ = precision_;
    autoConfig_ = entries[0].config;
    autoWhy_ = why.str();
    return autoConfig_;
}

// ---- state ------------------------------------------------------------------------------------

void NbodySimulation::allocate(std::size_t n, bool floatState, bool doubleState) {
    const DeviceInfo& dev = cc_.info();
    const std::size_t bufferBytes = n * (doubleState ? 32 : 16);
    if (dev.maxAllocBytes && bufferBytes > dev.maxAllocBytes)
        throw Error(std::to_string(n) + " bodies need buffers of " + formatBytes(bufferBytes) +
                    ", more than " + dev.name + " allows in one allocation (" +
                    formatBytes(dev.maxAllocBytes) + ")");
    const std::size_t total =
        n * 16 * 3 + (precision_ == NbodyPrecision::Double || doubleState ? n * 32 * 3 : 0);
    if (dev.globalMemBytes && total > dev.globalMemBytes)
        throw Error(std::to_string(n) + " bodies need " + formatBytes(total) +
                    " of device memory; " + dev.name + " has " + formatBytes(dev.globalMemBytes));
    try {
        const auto& ctx = cc_.context();
        if (floatState) {
            pos_ = cl::Buffer(ctx, CL_MEM_READ_WRITE, n * 16);
            vel_ = cl::Buffer(ctx, CL_MEM_READ_WRITE, n * 16);
            acc_ = cl::Buffer(ctx, CL_MEM_READ_WRITE, n * 16);
        }
        if (doubleState) {
            posD_ = cl::Buffer(ctx, CL_MEM_READ_WRITE, n * 32);
            velD_ = cl::Buffer(ctx, CL_MEM_READ_WRITE, n * 32);
            accD_ = cl::Buffer(ctx, CL_MEM_READ_WRITE, n * 32);
        }
    } catch (const cl::Error& e) {
        throw Error(describeClError(
            ("cannot allocate device memory for " + std::to_string(n) + " bodies").c_str(),
            e.err()));
    }
}

void NbodySimulation::load(const std::vector<Body>& bodies) {
    if (bodies.empty()) throw Error("cannot load an empty set of bodies (need N >= 1)");
    if (bodies.size() > kMaxBodies)
        throw Error(std::to_string(bodies.size()) + " bodies is more than clviz accepts (" +
                    std::to_string(kMaxBodies) + ")");
    if (bodies.size() != n_) {
        n_ = 0;
        allocate(bodies.size(), true, precision_ == NbodyPrecision::Double);
        n_ = bodies.size();
    }
    kernels_->current = nullptr;  // small-n's split and the tuned config depend on N
    uploadState(bodies);
    time_ = 0;
    steps_ = 0;
    haveEnergyReference_ = false;
    lastEvents_.clear();
    lastSteps_ = 0;
}

void NbodySimulation::uploadState(const std::vector<Body>& bodies) {
    const std::size_t n = bodies.size();
    std::vector<Float4> pos(n), vel(n);
    for (std::size_t i = 0; i < n; ++i) {
        pos[i] = bodies[i].pos;
        vel[i] = bodies[i].vel;
    }
    auto& q = cc_.queue();
    try {
        q.enqueueWriteBuffer(pos_, CL_TRUE, 0, n * 16, pos.data());
        q.enqueueWriteBuffer(vel_, CL_TRUE, 0, n * 16, vel.data());
        if (precision_ == NbodyPrecision::Double) {
            std::vector<double> pd(4 * n), vd(4 * n);
            for (std::size_t i = 0; i < n; ++i) {
                const Float4 &p = pos[i], &v = vel[i];
                pd[4 * i] = p.x, pd[4 * i + 1] = p.y, pd[4 * i + 2] = p.z, pd[4 * i + 3] = p.w;
                vd[4 * i] = v.x, vd[4 * i + 1] = v.y, vd[4 * i + 2] = v.z, vd[4 * i + 3] = v.w;
            }
            q.enqueueWriteBuffer(posD_, CL_TRUE, 0, n * 32, pd.data());
            q.enqueueWriteBuffer(velD_, CL_TRUE, 0, n * 32, vd.data());
        }
    } catch (const cl::Error& e) {
        throw Error(describeClError("cannot upload the bodies to the device", e.err()));
    }
    accCurrent_ = false;
}

std::vector<Body> NbodySimulation::readBodies() {
    std::vector<Float4> pos(n_), vel(n_);
    if (n_) {
        cc_.queue().enqueueReadBuffer(pos_, CL_TRUE, 0, n_ * 16, pos.data());
        cc_.queue().enqueueReadBuffer(vel_, CL_TRUE, 0, n_ * 16, vel.data());
    }
    std::vector<Body> out(n_);
    for (std::size_t i = 0; i < n_; ++i)
        out[i] = {pos[i], vel[i]};
    return out;
}

std::vector<Float4> NbodySimulation::readAccelerations() {
    std::vector<Float4> out(n_);
    if (!n_) return out;
    ensureAccelerationsCurrent();
    if (precision_ == NbodyPrecision::Double) {
        std::vector<double> d(4 * n_);
        cc_.queue().enqueueReadBuffer(accD_, CL_TRUE, 0, n_ * 32, d.data());
        for (std::size_t i = 0; i < n_; ++i)
            out[i] = {float(d[4 * i]), float(d[4 * i + 1]), float(d[4 * i + 2]),
                      float(d[4 * i + 3])};
    } else {
        cc_.queue().enqueueReadBuffer(acc_, CL_TRUE, 0, n_ * 16, out.data());
    }
    return out;
}

std::vector<double> NbodySimulation::readAccelerationsDouble() {
    std::vector<double> out(4 * n_);
    if (!n_) return out;
    if (precision_ == NbodyPrecision::Double) {
        ensureAccelerationsCurrent();
        cc_.queue().enqueueReadBuffer(accD_, CL_TRUE, 0, n_ * 32, out.data());
    } else {
        const auto f = readAccelerations();
        for (std::size_t i = 0; i < n_; ++i)
            out[4 * i] = f[i].x, out[4 * i + 1] = f[i].y, out[4 * i + 2] = f[i].z,
                    out[4 * i + 3] = f[i].w;
    }
    return out;
}

// ---- settings ---------------------------------------------------------------------------------

void NbodySimulation::setParams(const NbodyParams& p) {
    if (!(p.dt > 0) || !std::isfinite(p.dt))
        throw Error("dt must be a positive number (got " + std::to_string(p.dt) + ")");
    if (!(p.softening >= 0) || !std::isfinite(p.softening))
        throw Error("softening must be >= 0 (got " + std::to_string(p.softening) + ")");
    if (!(p.damping > 0 && p.damping <= 1))
        throw Error("damping must be in (0, 1] (got " + std::to_string(p.damping) + ")");
    if (!(p.theta >= 0 && p.theta <= 2))
        throw Error("theta must be in [0, 2] (got " + std::to_string(p.theta) + ")");
    if (p.theta != params_.theta && config_.variant == NbodyVariant::Tree) accCurrent_ = false;
    if (p.softening != params_.softening) {
        accCurrent_ = false;           // a(x) depends on it
        haveEnergyReference_ = false;  // and so does the potential energy
        kernels_->current = nullptr;   // eps == 0 switches the self-interaction guard
    }
    params_ = p;
}

void NbodySimulation::setIntegrator(NbodyIntegrator i) {
    integrator_ = i;
}

void NbodySimulation::setKernelConfig(const NbodyKernelConfig& c) {
    const auto check = [](const char* what, int v, int lo, int hi) {
        if (v != 0 && (!isPow2(v) || v < lo || v > hi))
            throw Error(std::string(what) + " must be 0 (default) or a power of two in [" +
                        std::to_string(lo) + ", " + std::to_string(hi) + "], got " +
                        std::to_string(v));
    };
    const int maxWg = static_cast<int>(std::min<std::size_t>(cc_.info().maxWorkGroupSize, 1024));
    check("work-group size", c.workGroupSize, 1, std::max(1, floorPow2(maxWg)));
    check("unroll", c.unroll, 1, 1024);
    check("bodies per item", c.bodiesPerItem, 1, 8);
    check("split", c.split, 1, 32);
    if (c.variant == NbodyVariant::Tree && precision_ == NbodyPrecision::Double)
        throw Error("the tree variant computes in float only: switch the precision to float first");
    if ((c.variant == NbodyVariant::Tree) != (config_.variant == NbodyVariant::Tree))
        accCurrent_ = false;  // the other method's a(x) differs (by the tree's error)
    config_ = c;
    kernels_->current = nullptr;
}

namespace {

// The single-field setters: a copy of the requested config with one field changed, so every
// change goes through setKernelConfig's checks.
template <class T>
void setConfigField(NbodySimulation& sim, T NbodyKernelConfig::*field, T value) {
    auto c = sim.kernelConfig();
    c.*field = value;
    sim.setKernelConfig(c);
}

}  // namespace

void NbodySimulation::setVariant(NbodyVariant v) {
    setConfigField(*this, &NbodyKernelConfig::variant, v);
}
void NbodySimulation::setWorkGroupSize(int wg) {
    setConfigField(*this, &NbodyKernelConfig::workGroupSize, wg);
}
void NbodySimulation::setUnroll(int u) {
    setConfigField(*this, &NbodyKernelConfig::unroll, u);
}
void NbodySimulation::setBodiesPerItem(int b) {
    setConfigField(*this, &NbodyKernelConfig::bodiesPerItem, b);
}
void NbodySimulation::setSplit(int s) {
    setConfigField(*this, &NbodyKernelConfig::split, s);
}

void NbodySimulation::setPrecision(NbodyPrecision p) {
    if (p == precision_) return;
    if (p == NbodyPrecision::Double && !supportsFp64())
        throw Error(cc_.info().name + " has no cl_khr_fp64: double precision is not available");
    if (p == NbodyPrecision::Double && config_.variant == NbodyVariant::Tree)
        throw Error("the tree variant computes in float only: pick an all-pairs variant for fp64");
    auto& pc = cc_.programs();
    if (!kernels_->toFloat()) {
        kernels_->toFloat = pc.kernel("nbody_integrate.cl", "nbody_to_float", "-DREAL_DOUBLE");
        kernels_->toDouble = pc.kernel("nbody_integrate.cl", "nbody_to_double", "-DREAL_DOUBLE");
        kernels_->kickDrift[1] =
            pc.kernel("nbody_integrate.cl", "nbody_kick_drift", "-DREAL_DOUBLE");
        kernels_->taylor[1] = pc.kernel("nbody_integrate.cl", "nbody_taylor", "-DREAL_DOUBLE");
    }
    auto convert = [&](cl::Kernel& k, const cl::Buffer& from, const cl::Buffer& to) {
        k.setArg(0, from);
        k.setArg(1, to);
        k.setArg(2, static_cast<int>(n_));
        cc_.queue().enqueueNDRangeKernel(k, cl::NullRange, cl::NDRange(roundUp(n_, kElementwiseWg)),
                                         cl::NDRange(kElementwiseWg));
    };
    if (p == NbodyPrecision::Double) {
        precision_ = p;
        if (n_) {
            try {
                allocate(n_, false, true);
            } catch (...) {
                precision_ = NbodyPrecision::Float;
                throw;
            }
            convert(kernels_->toDouble, pos_, posD_);
            convert(kernels_->toDouble, vel_, velD_);
            convert(kernels_->toDouble, acc_, accD_);
        }
    } else {
        if (n_) {
            convert(kernels_->toFloat, posD_, pos_);
            convert(kernels_->toFloat, velD_, vel_);
            convert(kernels_->toFloat, accD_, acc_);
            cc_.queue().finish();
        }
        posD_ = velD_ = accD_ = cl::Buffer();
        precision_ = p;
    }
    kernels_->current = nullptr;
}

// ---- stepping ---------------------------------------------------------------------------------

void NbodySimulation::computeForces(bool kick, float kickFactor, std::vector<cl::Event>* events) {
    if (config_.variant == NbodyVariant::Tree) {  // float only (setPrecision/setKernelConfig)
        TreeForce& t = tree();
        t.setTheta(params_.theta);
        t.compute(pos_, n_, params_.softening, acc_, &vel_, kick ? kickFactor : 0.0f);
        for (const auto& e : t.lastEvents()) {
            if (events) events->push_back(e.second);
            lastEvents_.push_back(e);
        }
        accCurrent_ = true;
        return;
    }
    Built& b = built();
    const bool dbl = precision_ == NbodyPrecision::Double;
    cl::Kernel& k = b.kernel;
    k.setArg(0, dbl ? posD_ : pos_);
    k.setArg(1, dbl ? accD_ : acc_);
    k.setArg(2, dbl ? velD_ : vel_);
    k.setArg(3, static_cast<int>(n_));
    k.setArg(4, static_cast<int>(n_));
    const double eps2 = static_cast<double>(params_.softening) * params_.softening;
    const double kf = kick ? kickFactor : 0.0;
    if (dbl) {
        k.setArg(5, eps2);
        k.setArg(6, kf);
    } else {
        k.setArg(5, static_cast<float>(eps2));
        k.setArg(6, static_cast<float>(kf));
    }
    const std::size_t groups = (n_ + b.bodiesPerGroup - 1) / b.bodiesPerGroup;
    const std::size_t wg = b.config.workGroupSize;
    cl::Event ev;
    cc_.queue().enqueueNDRangeKernel(k, cl::NullRange, cl::NDRange(groups * wg), cl::NDRange(wg),
                                     nullptr, &ev);
    if (events) events->push_back(ev);
    lastEvents_.emplace_back("force", ev);
    accCurrent_ = true;
}

void NbodySimulation::ensureAccelerationsCurrent() {
    if (!accCurrent_ && n_) computeForces(false, 0, nullptr);
}

void NbodySimulation::refreshFloatMirror(std::vector<cl::Event>*) {
    if (precision_ != NbodyPrecision::Double || !n_) return;
    for (auto [from, to] : {std::pair{&posD_, &pos_}, std::pair{&velD_, &vel_}}) {
        kernels_->toFloat.setArg(0, *from);
        kernels_->toFloat.setArg(1, *to);
        kernels_->toFloat.setArg(2, static_cast<int>(n_));
        cl::Event ev;
        cc_.queue().enqueueNDRangeKernel(kernels_->toFloat, cl::NullRange,
                                         cl::NDRange(roundUp(n_, kElementwiseWg)),
                                         cl::NDRange(kElementwiseWg), nullptr, &ev);
        lastEvents_.emplace_back("to-float", ev);
    }
}

void NbodySimulation::step(int count) {
    if (!n_ || count <= 0) return;
    lastEvents_.clear();
    lastSteps_ = count;
    const bool dbl = precision_ == NbodyPrecision::Double;
    const int p = dbl ? 1 : 0;
    auto& q = cc_.queue();
    const std::size_t global = roundUp(n_, kElementwiseWg);
    // The per-body update kernels: (pos, vel, acc, n, then real scalars from argument 4).
    auto runUpdate = [&](cl::Kernel& k, const char* name, std::initializer_list<double> reals) {
        k.setArg(0, dbl ? posD_ : pos_);
        k.setArg(1, dbl ? velD_ : vel_);
        k.setArg(2, dbl ? accD_ : acc_);
        k.setArg(3, static_cast<int>(n_));
        int index = 4;
        for (double v : reals) {
            if (dbl)
                k.setArg(index++, v);
            else
                k.setArg(index++, static_cast<float>(v));
        }
        cl::Event ev;
        q.enqueueNDRangeKernel(k, cl::NullRange, cl::NDRange(global), cl::NDRange(kElementwiseWg),
                               nullptr, &ev);
        lastEvents_.emplace_back(name, ev);
    };
    try {
        for (int s = 0; s < count; ++s) {
            const double dt = params_.dt;
            ensureAccelerationsCurrent();
            if (integrator_ == NbodyIntegrator::Leapfrog) {
                runUpdate(kernels_->kickDrift[p], "kick-drift", {dt / 2, dt, params_.damping});
                computeForces(true, static_cast<float>(dt / 2), nullptr);  // exact: dt is float
            } else {
                runUpdate(kernels_->taylor[p], "update", {dt, params_.damping});
                accCurrent_ = false;  // a belongs to the old positions
            }
            time_ += dt;
            ++steps_;
        }
        refreshFloatMirror(nullptr);
        q.flush();
    } catch (const cl::Error& e) {
        throw Error(describeClError(
            ("N-body step failed (" + describe(effectiveKernelConfig()) + ")").c_str(), e.err()));
    }
}

NbodyStepTimings NbodySimulation::lastStepTimings() {
    NbodyStepTimings t;
    t.steps = lastSteps_;
    t.bodies = static_cast<long long>(n_);
    for (const auto& [name, ev] : lastEvents_) {
        const double ms = eventMilliseconds(ev);
        t.kernelMs += ms;
        if (name == "force" || name.rfind("tree-", 0) == 0) t.forceMs += ms;
        auto it = std::find_if(t.kernels.begin(), t.kernels.end(),
                               [&](const NbodyKernelTime& k) { return k.kernel == name; });
        if (it == t.kernels.end())
            t.kernels.push_back({name, ms, 1});
        else
            it->ms += ms, ++it->launches;
    }
    return t;
}

TreeAccuracy NbodySimulation::forceAccuracy(int samples) {
    if (!n_ || precision_ == NbodyPrecision::Double) return {};
    ensureAccelerationsCurrent();
    return tree().accuracy(pos_, n_, params_.softening, acc_, samples);
}

TreeWalkStats NbodySimulation::treeWalkStats() {
    return tree_ ? tree_->lastWalkStats() : TreeWalkStats{};
}

// ---- diagnostics ------------------------------------------------------------------------------

NbodyDiagnostics NbodySimulation::diagnostics() {
    NbodyDiagnostics d;
    if (!n_) return d;
    const bool dbl = precision_ == NbodyPrecision::Double;
    const int p = dbl ? 1 : 0;
    if (!kernels_->energy[p]()) {
        int wg = floorPow2(std::min<std::size_t>(cc_.info().maxWorkGroupSize, 256));
        for (;;) {
            std::string opts = "-DWG=" + std::to_string(wg) + (dbl ? " -DREAL_DOUBLE" : "");
            cl::Kernel k = cc_.programs().kernel("nbody_diagnostics.cl", "nbody_energy", opts);
            const auto kmax = k.getWorkGroupInfo<CL_KERNEL_WORK_GROUP_SIZE>(cc_.device());
            if (kmax >= static_cast<std::size_t>(wg) || wg == 1) {
                kernels_->energy[p] = k;
                kernels_->energyWg[p] = wg;
                break;
            }
            wg = floorPow2(kmax);
        }
    }
    const std::size_t wg = kernels_->energyWg[p];
    const std::size_t groups = (n_ + wg - 1) / wg;
    const std::size_t rb = realBytes(precision_);
    cl::Buffer partials(cc_.context(), CL_MEM_READ_WRITE, groups * 8 * rb);
    cl::Buffer firstBad(cc_.context(), CL_MEM_READ_WRITE, groups * sizeof(cl_int));
    cl::Kernel& k = kernels_->energy[p];
    k.setArg(0, dbl ? posD_ : pos_);
    k.setArg(1, dbl ? velD_ : vel_);
    k.setArg(2, static_cast<int>(n_));
    const double eps2 = static_cast<double>(params_.softening) * params_.softening;
    if (dbl)
        k.setArg(3, eps2);
    else
        k.setArg(3, static_cast<float>(eps2));
    k.setArg(4, partials);
    k.setArg(5, firstBad);
    cl::Event ev;
    auto& q = cc_.queue();
    q.enqueueNDRangeKernel(k, cl::NullRange, cl::NDRange(groups * wg), cl::NDRange(wg), nullptr,
                           &ev);
    std::vector<double> sums(8, 0.0);
    std::vector<cl_int> bad(groups);
    if (dbl) {
        std::vector<double> h(groups * 8);
        q.enqueueReadBuffer(partials, CL_TRUE, 0, h.size() * 8, h.data());
        for (std::size_t g = 0; g < groups; ++g)
            for (int c = 0; c < 8; ++c)
                sums[c] += h[g * 8 + c];
    } else {
        std::vector<float> h(groups * 8);
        q.enqueueReadBuffer(partials, CL_TRUE, 0, h.size() * 4, h.data());
        for (std::size_t g = 0; g < groups; ++g)
            for (int c = 0; c < 8; ++c)
                sums[c] += h[g * 8 + c];
    }
    q.enqueueReadBuffer(firstBad, CL_TRUE, 0, groups * sizeof(cl_int), bad.data());
    d.ms = eventMilliseconds(ev);
    d.kinetic = sums[0];
    d.potential = sums[1];
    d.total = d.kinetic + d.potential;
    d.momentum[0] = sums[2];
    d.momentum[1] = sums[3];
    d.momentum[2] = sums[4];
    d.nonFiniteBodies = std::llround(sums[5]);
    const long long first = *std::min_element(bad.begin(), bad.end());
    d.firstNonFinite = first < static_cast<long long>(n_) ? first : -1;
    if (d.nonFiniteBodies == 0 && !haveEnergyReference_) {
        energyReference_ = d.total;
        haveEnergyReference_ = true;
    }
    d.initialEnergy = energyReference_;
    d.relativeEnergyDrift = haveEnergyReference_ && energyReference_ != 0
                                ? (d.total - energyReference_) / std::abs(energyReference_)
                                : 0.0;
    return d;
}

void NbodySimulation::resetEnergyReference() {
    haveEnergyReference_ = false;
    diagnostics();
}

// ---- auto-tune --------------------------------------------------------------------------------

NbodyAutotuneResult NbodySimulation::autotune(NbodyVariant variant, double budgetSeconds) {
    if (!n_) throw Error("load bodies before auto-tuning");
    if (variant == NbodyVariant::Auto)
        throw Error("auto-tune needs a kernel variant; auto picks among the tuned ones");
    if (variant == NbodyVariant::Tree)
        throw Error("the tree variant has no launch configuration to auto-tune");
    const auto start = std::chrono::steady_clock::now();
    const auto elapsed = [&] {
        return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    };
    const bool dbl = precision_ == NbodyPrecision::Double;
    // Time on a scratch acceleration buffer and without the kick: the state stays untouched.
    // Above 2^18 bodies only the first 2^18 i-bodies are computed (still hundreds of groups),
    // which keeps each trial short without changing the per-interaction cost.
    const std::size_t ni = std::min<std::size_t>(n_, std::size_t{1} << 18);
    cl::Buffer scratch(cc_.context(), CL_MEM_READ_WRITE, n_ * 4 * realBytes(precision_));
    const NbodyKernelConfig savedConfig = config_;
    const std::string savedNote = note_;

    NbodyAutotuneResult result;
    std::map<std::string, double> seen;  // by describe(): clamped duplicates are timed once
    auto trial = [&](NbodyKernelConfig c) -> double {
        config_ = c;
        kernels_->current = nullptr;
        Built* b = nullptr;
        try {
            b = &built();
        } catch (const Error& e) {
            result.log += describe(c) + ": skipped (" + e.what() + ")\n";
            return 1e300;
        }
        const std::string key = describe(b->config);
        if (auto it = seen.find(key); it != seen.end()) return it->second;
        cl::Kernel& k = b->kernel;
        k.setArg(0, dbl ? posD_ : pos_);
        k.setArg(1, scratch);
        k.setArg(2, dbl ? velD_ : vel_);
        k.setArg(3, static_cast<int>(n_));
        k.setArg(4, static_cast<int>(ni));
        const double eps2 = static_cast<double>(params_.softening) * params_.softening;
        if (dbl)
            k.setArg(5, eps2), k.setArg(6, 0.0);
        else
            k.setArg(5, static_cast<float>(eps2)), k.setArg(6, 0.0f);
        const std::size_t groups = (ni + b->bodiesPerGroup - 1) / b->bodiesPerGroup;
        const std::size_t wg = b->config.workGroupSize;
        double best = 1e300;
        try {
            for (int r = 0; r < 3; ++r) {
                cl::Event ev;
                cc_.queue().enqueueNDRangeKernel(k, cl::NullRange, cl::NDRange(groups * wg),
                                                 cl::NDRange(wg), nullptr, &ev);
                const double ms = eventMilliseconds(ev);
                if (r > 0 || ms > 200) best = std::min(best, ms);  // first run warms up
                if (ms > 200 && r > 0) break;
            }
        } catch (const cl::Error& e) {
            result.log += key + ": failed (" + clErrorName(e.err()) + ")\n";
            best = 1e300;
        }
        seen[key] = best;
        ++result.candidates;
        if (best < 1e300) {
            std::ostringstream line;
            line << key << ": " << best << " ms\n";
            result.log += line.str();
        }
        if (best < result.bestMs || result.bestMs == 0) {
            result.bestMs = best;
            result.best = b->config;
        }
        return best;
    };

    // Coordinate descent from the current default: one dimension at a time, twice over, each
    // dimension's candidates tried in order until the time budget runs out.
    const bool gpu = cc_.info().kind == DeviceKind::Gpu;
    NbodyKernelConfig cur = deviceDefaults(variant, gpu, n_, cc_.info().computeUnits);
    cur.split = 0;
    trial(cur);
    cur = result.best;
    std::vector<int> wgs;
    for (int wg : workGroupSizeChoices())
        if (wg >= (gpu ? 32 : 4)) wgs.push_back(wg);
    for (int pass = 0; pass < 2 && elapsed() < budgetSeconds; ++pass) {
        auto sweep = [&](int NbodyKernelConfig::*field, const std::vector<int>& values) {
            for (int v : values) {
                if (elapsed() >= budgetSeconds) return;
                NbodyKernelConfig c = cur;
                c.*field = v;
                trial(c);
            }
            cur = result.best;
        };
        sweep(&NbodyKernelConfig::workGroupSize, wgs);
        if (usesTileBlocking(variant)) {
            sweep(&NbodyKernelConfig::bodiesPerItem, {1, 2, 4, 8});
            sweep(&NbodyKernelConfig::unroll, {1, 2, 4, 8, 16, 32, 64});
        }
        if (variant == NbodyVariant::SmallN) sweep(&NbodyKernelConfig::split, {1, 2, 4, 8, 16, 32});
    }

    config_ = savedConfig;
    note_ = savedNote;
    kernels_->current = nullptr;
    if (result.bestMs > 0 && result.bestMs < 1e300) {
        AutotuneMemory::instance().store(autotuneKey(cc_.info(), variant, precision_, n_),
                                         result.best, result.bestMs);
        autoN_ = 0;  // a new measurement: Auto picks again
    }
    return result;
}

}  // namespace clviz
