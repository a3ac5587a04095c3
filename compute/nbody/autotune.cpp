// NbodySimulation's auto-tune (a coordinate descent over the launch config of one variant, timed
// on the loaded bodies) and the Auto variant's pick among the tuned variants.
#include <algorithm>
#include <chrono>
#include <iomanip>
#include <map>
#include <sstream>

#include "common/error.hpp"
#include "compute/core/cl_boundary.hpp"
#include "compute/core/compute_context.hpp"
#include "compute/core/profiling.hpp"
#include "compute/nbody/autotune_store.hpp"
#include "compute/nbody/build_options.hpp"
#include "compute/nbody/simulation_internals.hpp"

namespace clviz {

using namespace nbody_detail;

namespace {
constexpr double kFailed = 1e300;  // the time of a candidate that could not be built or run

// Best of a few runs of `pass` (which returns its device milliseconds); the first run warms up
// unless it alone is long.
template <class Pass>
double bestOfPasses(Pass pass) {
    double best = kFailed;
    for (int r = 0; r < 3; ++r) {
        const double ms = pass();
        if (r > 0 || ms > 200) best = std::min(best, ms);
        if (ms > 200 && r > 0) break;
    }
    return best;
}
}  // namespace

// Best of a few force passes into `scratch` without the kick (the state stays untouched).
double NbodySimulation::timeForcePass(Built& b, const cl::Buffer& scratch, std::size_t iBodies) {
    return bestOfPasses(
        [&] { return eventMilliseconds(enqueueForce(b, scratch, 0, iBodies, 0.0)); });
}

NbodyAutotuneResult NbodySimulation::autotune(NbodyVariant variant, double budgetSeconds) {
    return clBoundary("the N-body auto-tune failed", [&] {
        if (!n_) throw Error("load bodies before auto-tuning");
        if (variant == NbodyVariant::Auto)
            throw Error("auto-tune needs a kernel variant; auto picks among the tuned ones");
        if (variant == NbodyVariant::Pairs) return autotunePairs(budgetSeconds);
        if (runsOnOneDeviceInFloat(variant))
            throw Error(std::string("the ") + variantName(variant) +
                        " variant has no launch configuration to auto-tune");
        const auto start = std::chrono::steady_clock::now();
        const auto elapsed = [&] {
            return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        };
        // Above 2^18 bodies only the first 2^18 i-bodies are computed (still hundreds of groups),
        // which keeps each trial short without changing the per-interaction cost.
        const std::size_t ni = std::min<std::size_t>(n_, std::size_t{1} << 18);
        cl::Buffer scratch(cc_.context(), CL_MEM_READ_WRITE, n_ * 4 * realBytes(precision_));
        // The trials change the kernel choice; it is put back however the tune ends (a
        // cancelled job's progress report throws).
        struct RestoreChoice {
            NbodySimulation& sim;
            NbodyKernelConfig config;
            std::string note;
            ~RestoreChoice() {
                sim.config_ = config;
                sim.note_ = note;
                sim.kernels_->current = nullptr;
            }
        } restore{*this, config_, note_};

        NbodyAutotuneResult result;
        std::map<std::string, double> seen;  // by describe(): clamped duplicates are timed once
        int tried = 0, planned = 1;  // planned: every candidate of both passes, if time allows
        auto trial = [&](NbodyKernelConfig c) {
            if (progress_)
                progress_(std::string("Auto-tuning ") + variantName(variant) + progressContext_,
                          ++tried, std::max(tried, planned));
            config_ = c;
            kernels_->current = nullptr;
            Built* b = nullptr;
            try {
                b = &built();
            } catch (const Error& e) {
                result.log += describe(c) + ": skipped (" + e.what() + ")\n";
                return;
            }
            const std::string key = describe(b->config);
            if (seen.count(key)) return;
            double ms = kFailed;
            try {
                ms = timeForcePass(*b, scratch, ni);
            } catch (const cl::Error& e) {
                result.log += key + ": failed (" + clErrorName(e.err()) + ")\n";
            }
            seen[key] = ms;
            ++result.candidates;
            if (ms < kFailed) {
                std::ostringstream line;
                line << key << ": " << ms << " ms\n";
                result.log += line.str();
            }
            if (ms < result.bestMs || result.bestMs == 0) {
                result.bestMs = ms;
                result.best = b->config;
            }
        };

        // Coordinate descent from the current default: one dimension at a time, twice over, each
        // dimension's candidates tried in order until the time budget runs out.
        const bool gpu = cc_.info().kind == DeviceKind::Gpu;
        NbodyKernelConfig cur = nbodyDeviceDefaults(variant, gpu, n_, cc_.info().computeUnits);
        std::vector<int> wgs;
        for (int wg : workGroupSizeChoices())
            if (wg >= (gpu ? 32 : 4)) wgs.push_back(wg);
        const std::vector<int> bpis{1, 2, 4, 8}, unrolls{1, 2, 4, 8, 16, 32, 64},
            splits{1, 2, 4, 8, 16, 32};
        planned = 1 + 2 * int(wgs.size() +
                              (usesTileBlocking(variant) ? bpis.size() + unrolls.size() : 0) +
                              (tunablesOf(variant).split ? splits.size() : 0));
        trial(cur);
        cur = result.best;
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
                sweep(&NbodyKernelConfig::bodiesPerItem, bpis);
                sweep(&NbodyKernelConfig::unroll, unrolls);
            }
            if (tunablesOf(variant).split) sweep(&NbodyKernelConfig::split, splits);
        }

        if (result.bestMs > 0 && result.bestMs < kFailed) {
            env_.autotune->store(NbodyAutotuneStore::key(cc_.info(), variant, precision_, n_),
                                 result.best, result.bestMs);
            autoN_ = 0;  // a new measurement: Auto picks again
        }
        return result;
    });
}

// The pairs variant's shapes, each timed on the first n' = min(N, 2^18) bodies (every pair among
// them, into a scratch buffer) and scaled by N / n' to the unit of the other variants' trials
// (2^18 i-bodies against all N), so Auto compares like with like.
NbodyAutotuneResult NbodySimulation::autotunePairs(double budgetSeconds) {
    if (precision_ != NbodyPrecision::Float)
        throw Error("the pairs variant computes in float only: nothing to auto-tune in fp64");
    const auto start = std::chrono::steady_clock::now();
    const std::size_t sub = std::min<std::size_t>(n_, std::size_t{1} << 18);
    const double scale = static_cast<double>(n_) / static_cast<double>(sub);
    cl::Buffer scratch(cc_.context(), CL_MEM_READ_WRITE, sub * sizeof(cl_float4));
    PairForce& force = pairs();
    NbodyAutotuneResult result;
    std::vector<PairForceShape> shapes{force.resolve(sub, {})};  // the default first
    for (int wg : {64, 128, 256})
        for (int ipi : {4, 8})
            shapes.push_back(force.resolve(sub, {wg, ipi, 0}));
    std::vector<PairForceShape> seen;
    for (const PairForceShape& s : shapes) {
        if (std::find(seen.begin(), seen.end(), s) != seen.end()) continue;
        if (result.candidates > 0 &&
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() >=
                budgetSeconds)
            break;
        seen.push_back(s);
        if (progress_)
            progress_("Auto-tuning pairs" + progressContext_, int(seen.size()), int(shapes.size()));
        const NbodyKernelConfig c{NbodyVariant::Pairs, s.workGroupSize, 0, s.iPerItem, 0};
        double ms = kFailed;
        try {
            ms = scale * bestOfPasses([&] {
                     force.compute(f32_.pos, sub, params_.softening, scratch, nullptr, 0, s);
                     return eventMilliseconds(force.lastEvents().back().second);  // "force"
                 });
        } catch (const Error& e) {
            result.log += describe(c) + ": skipped (" + e.what() + ")\n";
            continue;
        }
        ++result.candidates;
        std::ostringstream line;
        line << describe(c) << ": " << ms << " ms\n";
        result.log += line.str();
        if (result.bestMs == 0 || ms < result.bestMs) {
            result.bestMs = ms;
            result.best = c;
        }
    }
    if (result.candidates > 0) {
        env_.autotune->store(
            NbodyAutotuneStore::key(cc_.info(), NbodyVariant::Pairs, precision_, n_), result.best,
            result.bestMs);
        autoN_ = 0;
    }
    return result;
}

NbodyKernelConfig NbodySimulation::autoPick() {
    const DeviceInfo& dev = cc_.info();
    const bool gpu = dev.kind == DeviceKind::Gpu;
    if (n_ == 0) return nbodyDeviceDefaults(defaultNbodyVariant(gpu), gpu, n_, dev.computeUnits);
    if (autoN_ == n_ && autoPrecision_ == precision_) return autoConfig_;
    // The variant table's `autoConsiders` rows compete (naive and tiled are never the fastest),
    // each with its best auto-tuned config (remembered from an earlier auto-tune, or tuned now).
    struct Entry {
        NbodyKernelConfig config;
        double ms;
        bool remembered;
    };
    std::vector<Entry> entries;
    const std::vector<NbodyVariant> candidates = autoCandidates();
    struct ClearContext {  // however the pick ends: a tune called directly has no context
        std::string& context;
        ~ClearContext() { context.clear(); }
    } clearContext{progressContext_};
    int index = 0;
    for (NbodyVariant v : candidates) {
        progressContext_ = " (variant " + std::to_string(++index) + " of " +
                           std::to_string(candidates.size()) + ")";
        // Pairs needs float and every body on this device.
        if (runsOnOneDeviceInFloat(v) && (precision_ != NbodyPrecision::Float || ownedCount_ != n_))
            continue;
        Entry e{{}, 0, false};
        if (useAutotuneMemory_)
            if (auto t = env_.autotune->find(NbodyAutotuneStore::key(dev, v, precision_, n_));
                t && t->ms > 0)
                e = {t->config, t->ms, true};
        if (!e.remembered) {
            const NbodyAutotuneResult r = autotune(v, autoBudget_);
            if (!(r.bestMs > 0 && r.bestMs < kFailed)) continue;
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

}  // namespace clviz
