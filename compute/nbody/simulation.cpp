#include "compute/nbody/simulation.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <initializer_list>
#include <utility>

#include "common/busy_time.hpp"
#include "common/error.hpp"
#include "compute/core/cl_boundary.hpp"
#include "compute/core/compute_context.hpp"
#include "compute/core/inline_ptx.hpp"
#include "compute/core/profiling.hpp"
#include "compute/core/program_cache.hpp"
#include "compute/core/set_args.hpp"
#include "compute/nbody/autotune_store.hpp"
#include "compute/nbody/body_slots.hpp"
#include "compute/nbody/build_options.hpp"
#include "compute/nbody/param_ranges.hpp"
#include "compute/nbody/simulation_internals.hpp"

namespace clviz {

using namespace nbody_detail;

NbodyEnvironment NbodyEnvironment::fromProcessEnvironment() {
    NbodyEnvironment env;
    env.autotune = std::make_shared<NbodyAutotuneStore>(
        NbodyAutotuneStore::userCacheFile(std::getenv("XDG_CACHE_HOME"), std::getenv("HOME")));
    if (const char* dir = std::getenv("CLVIZ_NBODY_DUMP")) env.dumpDir = dir;
    env.trustCompiledWorkGroupSize = std::getenv("CLVIZ_NBODY_TRUST_REQD") != nullptr;
    return env;
}

double NbodyStepTimings::interactionsPerSecond() const {
    if (kernelMs <= 0) return 0;
    return interactionsPerStep * steps / (kernelMs * 1e-3);
}
double NbodyStepTimings::gflops() const {
    return interactionsPerSecond() * flopsPerInteraction * 1e-9;
}
double NbodyStepTimings::equivalentInteractionsPerSecond() const {
    if (kernelMs <= 0) return 0;
    return static_cast<double>(bodies) * static_cast<double>(bodies) * steps / (kernelMs * 1e-3);
}

void countNbodyWork(NbodyStepTimings& t, NbodyVariant variant, bool fp64, double treeListPerBody) {
    const double n = static_cast<double>(t.bodies);
    t.fp64 = fp64;
    t.allPairs = variant != NbodyVariant::Tree && variant != NbodyVariant::Pairs;
    t.listEntries = variant == NbodyVariant::Tree;
    t.flopsPerInteraction = 20;
    if (variant == NbodyVariant::Tree) {
        t.interactionsPerStep = treeListPerBody * n;
    } else if (variant == NbodyVariant::Pairs) {
        // Each pair once, applied to both bodies: N(N-1) interactions from N(N-1)/2 pair
        // evaluations of 26 flops (the 20 of one interaction, 6 more for the reaction: scale by
        // the other mass, subtract from the other body's sum), so 13 per interaction.
        t.interactionsPerStep = n * (n - 1);
        t.flopsPerInteraction = 13;
    } else {
        t.interactionsPerStep = n * n;
    }
}

namespace {

// The environment's dumpDir: each force kernel's build options, build log (registers on NVIDIA
// with -cl-nv-verbose) and binary (PTX on NVIDIA) go to dir/nbody-force-<hash>.*, for tuning.
void dumpBuild(const cl::Kernel& kernel, const std::string& options, const std::string& dir) {
    if (dir.empty()) return;
    try {
        const auto program = kernel.getInfo<CL_KERNEL_PROGRAM>();
        const auto devices = program.getInfo<CL_PROGRAM_DEVICES>();
        const std::string base =
            dir + "/nbody-force-" + std::to_string(std::hash<std::string>{}(options) % 1000000);
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

// The first "error: ..." line of a build failure, or "".
std::string firstCompilerError(const std::string& message) {
    const auto at = message.find("error:");
    return at == std::string::npos ? "" : message.substr(at, message.find('\n', at) - at);
}

}  // namespace

NbodySimulation::NbodySimulation(ComputeContext& cc, NbodyEnvironment env)
    : cc_(cc), env_(std::move(env)), kernels_(std::make_unique<Kernels>()) {
    if (!env_.autotune) env_.autotune = std::make_shared<NbodyAutotuneStore>();
    const bool gpu = cc_.info().kind == DeviceKind::Gpu;
    config_.variant = defaultNbodyVariant(gpu);
    if (!gpu) autoBudget_ = 0.5;  // PoCL: small trials; keeps the viewer's start-up short
    auto& pc = cc_.programs();
    kernels_->kickDrift[0] = pc.kernel("nbody_integrate.cl", "nbody_kick_drift");
    kernels_->taylor[0] = pc.kernel("nbody_integrate.cl", "nbody_taylor");
    kernels_->gatherUint = pc.kernel("nbody_integrate.cl", "nbody_gather_uint");
}

NbodySimulation::~NbodySimulation() = default;

// The fp64 update and conversion kernels, fetched the first time fp64 is used.
void NbodySimulation::fetchDoubleKernels(Kernels& k) {
    auto& pc = cc_.programs();
    k.toFloat = pc.kernel("nbody_integrate.cl", "nbody_to_float", "-DREAL_DOUBLE");
    k.toDouble = pc.kernel("nbody_integrate.cl", "nbody_to_double", "-DREAL_DOUBLE");
    k.kickDrift[1] = pc.kernel("nbody_integrate.cl", "nbody_kick_drift", "-DREAL_DOUBLE");
    k.taylor[1] = pc.kernel("nbody_integrate.cl", "nbody_taylor", "-DREAL_DOUBLE");
}

void NbodySimulation::reloadKernels() {
    return clBoundary("cannot reload the N-body kernels", [&] {
        auto& pc = cc_.programs();
        auto fresh = std::make_unique<Kernels>();
        fresh->kickDrift[0] = pc.kernel("nbody_integrate.cl", "nbody_kick_drift");
        fresh->taylor[0] = pc.kernel("nbody_integrate.cl", "nbody_taylor");
        fresh->gatherUint = pc.kernel("nbody_integrate.cl", "nbody_gather_uint");
        if (kernels_->toFloat()) fetchDoubleKernels(*fresh);  // fp64 was used
        kernels_ = std::move(fresh);  // force and diagnostics kernels are fetched again on next use
        pairs_.reset();               // so are the pairs and tree kernels (their classes hold them)
        tree_.reset();
        renumberDue_ = false;  // the order it was due in went with the tree
        accCurrent_ = false;   // the next force pass runs the new force kernel
    });
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

// ---- the force kernel -------------------------------------------------------------------------

// Cached in kernels_->current until something it depends on changes.
NbodySimulation::Built& NbodySimulation::built() {
    if (!kernels_->current) kernels_->current = &build(resolvedConfig());
    return *kernels_->current;
}

NbodyKernelConfig NbodySimulation::resolvedConfig() {
    if (config_.variant == NbodyVariant::Auto) return autoPick();
    const DeviceInfo& dev = cc_.info();
    const NbodyKernelConfig defaults =
        nbodyDeviceDefaults(config_.variant, dev.kind == DeviceKind::Gpu, n_, dev.computeUnits);
    std::optional<NbodyTunedConfig> tuned;
    if (useAutotuneMemory_)
        tuned = env_.autotune->find(NbodyAutotuneStore::key(dev, config_.variant, precision_, n_));
    return resolveKernelConfig(config_, defaults, tuned ? &tuned->config : nullptr);
}

// Builds once per option set. Two things are only known after a build, and each sends it round
// again: NVIDIA's compiler refusing the inline PTX rsqrt, and a kernel that cannot run the
// work-group size compiled into it (CL_KERNEL_WORK_GROUP_SIZE).
NbodySimulation::Built& NbodySimulation::build(const NbodyKernelConfig& resolved) {
    const DeviceInfo& dev = cc_.info();
    const unsigned variantBit = 1u << static_cast<unsigned>(resolved.variant);
    NbodyForceBuildRequest request;
    request.config = resolved;
    request.n = n_;
    request.precision = precision_;
    request.softening = params_.softening;
    request.inlinePtx = !(ptxRefused_ & variantBit);
    request.verboseBuildLog = !env_.dumpDir.empty();
    std::string refused;  // set when the PTX rsqrt was refused during this build
    for (;;) {
        const NbodyForceBuild plan = nbodyForceBuild(request, dev);
        note_ = plan.note + (plan.note.empty() || refused.empty() ? "" : "; ") + refused;
        if (auto it = kernels_->force.find(plan.options); it != kernels_->force.end())
            return it->second;
        Built b;
        try {
            b.kernel = cc_.programs().kernel("nbody_force.cl", "nbody_force", plan.options);
        } catch (const Error& e) {
            if (plan.options.find(kInlinePtxDefine) == std::string::npos) throw;
            ptxRefused_ |= variantBit;  // use native_rsqrt from now on
            request.inlinePtx = false;
            refused = "inline PTX rsqrt refused by the compiler (" + firstCompilerError(e.what()) +
                      "); using native_rsqrt";
            continue;
        }
        dumpBuild(b.kernel, plan.options, env_.dumpDir);
        const std::size_t wg = plan.config.workGroupSize;
        const auto kmax = b.kernel.getWorkGroupInfo<CL_KERNEL_WORK_GROUP_SIZE>(cc_.device());
        if (kmax < wg && wg > 1 && !env_.trustCompiledWorkGroupSize) {
            request.kernelMaxWorkGroup = kmax;  // WG is compiled in: rebuild at a size that fits
            continue;
        }
        b.config = plan.config;
        b.bodiesPerGroup = plan.bodiesPerGroup;
        return kernels_->force.emplace(plan.options, std::move(b)).first->second;
    }
}

NbodyKernelConfig NbodySimulation::effectiveKernelConfig() {
    return clBoundary("cannot build the N-body force kernel", [&] {
        if (config_.variant == NbodyVariant::Tree) {
            NbodyKernelConfig c;
            c.variant = NbodyVariant::Tree;
            c.workGroupSize = tree().groupSize();
            return c;
        }
        if (const NbodyKernelConfig f = forceConfig(); f.variant == NbodyVariant::Pairs) {
            const PairForceShape s = pairs().resolve(n_, pairShape(f));
            NbodyKernelConfig c;
            c.variant = NbodyVariant::Pairs;
            c.workGroupSize = s.workGroupSize;
            c.bodiesPerItem = s.iPerItem;
            return c;
        }
        return built().config;
    });
}

bool NbodySimulation::forceKernelReady() const {
    if (!n_) return true;
    if (config_.variant == NbodyVariant::Tree) return tree_ != nullptr;
    NbodyVariant v = config_.variant;
    if (v == NbodyVariant::Auto) {
        if (autoN_ != n_ || autoPrecision_ != precision_) return false;  // not picked yet
        v = autoConfig_.variant;
    }
    if (v == NbodyVariant::Pairs) return pairs_ != nullptr;
    return kernels_->current != nullptr;
}

void NbodySimulation::applyTreeParams(TreeForce& t) {
    t.setTheta(params_.theta);
    t.setThetaFar(params_.thetaFar);
}

TreeForce& NbodySimulation::tree() {
    if (!tree_) tree_ = std::make_unique<TreeForce>(cc_);
    return *tree_;
}

PairForce& NbodySimulation::pairs() {
    if (!pairs_) pairs_ = std::make_unique<PairForce>(cc_);
    return *pairs_;
}

PairForceShape NbodySimulation::pairShape(const NbodyKernelConfig& c) {
    PairForceShape s;
    s.workGroupSize = c.workGroupSize;
    s.iPerItem = c.bodiesPerItem;
    return s;
}

NbodyKernelConfig NbodySimulation::forceConfig() {
    if (config_.variant == NbodyVariant::Auto) return autoPick();
    NbodyKernelConfig c = config_;
    if (c.variant == NbodyVariant::Pairs && useAutotuneMemory_)  // 0 fields: a remembered tune
        if (auto t = env_.autotune->find(
                NbodyAutotuneStore::key(cc_.info(), c.variant, precision_, n_))) {
            if (c.workGroupSize == 0) c.workGroupSize = t->config.workGroupSize;
            if (c.bodiesPerItem == 0) c.bodiesPerItem = t->config.bodiesPerItem;
        }
    return c;
}

void NbodySimulation::invalidateKernel() {
    kernels_->current = nullptr;
}

cl::Event NbodySimulation::enqueueForce(Built& b, const cl::Buffer& acc, std::size_t i0,
                                        std::size_t iBodies, double kick) {
    StateBuffers& s = state();
    cl::Kernel& k = b.kernel;
    setArgs(k, s.pos, acc, s.vel, static_cast<int>(n_), static_cast<int>(i0),
            static_cast<int>(iBodies));
    setRealArg(k, 6, static_cast<double>(params_.softening) * params_.softening, precision_);
    setRealArg(k, 7, kick, precision_);
    const std::size_t groups = (iBodies + b.bodiesPerGroup - 1) / b.bodiesPerGroup;
    const std::size_t wg = b.config.workGroupSize;
    cl::Event ev;
    cc_.queue().enqueueNDRangeKernel(k, cl::NullRange, cl::NDRange(groups * wg), cl::NDRange(wg),
                                     nullptr, &ev);
    return ev;
}

bool NbodySimulation::forcesAreShared() const {
    return runsOnOneDeviceInFloat(config_.variant) && ownedCount_ != n_;
}

void NbodySimulation::computeSharedForces() {
    return clBoundary("N-body shared force pass failed", [&] {
        if (!n_) return;
        if (config_.variant == NbodyVariant::Tree) {
            TreeForce& t = tree();
            applyTreeParams(t);
            if (treeDomainsSet())
                t.buildDomainSorted(f32_.pos, n_, params_.softening, treeDomains_, treeDomain_);
            else if (walkInPieces())
                t.buildShareSorted(f32_.pos, n_, params_.softening);
            else
                t.computeShareSorted(f32_.pos, n_, params_.softening, ownedBegin_, ownedCount_);
            treeEventsTaken_ = 0;  // a new pass: every event of it
            takeNewTreeEvents();
            afterTreePass();
        } else {
            PairForce& f = pairs();
            f.computeShare(f32_.pos, n_, params_.softening, f32_.acc, ownedBegin_, ownedCount_,
                           pairShape(forceConfig()));
            for (const auto& e : f.lastEvents())
                lastEvents_.push_back(e);
        }
        accCurrent_ = false;  // a part of the sum until finishSharedForces()
        bodiesScattered_ = bodiesKicked_ = 0;
    });
}

void NbodySimulation::setTreeDomains(std::vector<std::size_t> bounds, std::size_t domain) {
    treeDomains_ = std::move(bounds);
    treeDomain_ = domain;
}

const cl::Buffer& NbodySimulation::sharedForceSlices() {
    return tree().sortedAccelerations();
}

bool NbodySimulation::forceSlicesPackable() {
    return walkInPieces() && tree().builtForPieces();
}

const cl::Buffer& NbodySimulation::sharedForceSlicesPacked() {
    return tree().packedAccelerations();
}

void NbodySimulation::takeForceSlicesPacked() {
    clBoundary("N-body: taking the tree's packed slices failed",
               [&] { tree().takeSlicesPacked(ownedBegin_, ownedCount_); });
}

void NbodySimulation::takeNewTreeEvents() {
    const auto& events = tree().lastEvents();
    for (std::size_t i = treeEventsTaken_; i < events.size(); ++i)
        lastEvents_.push_back(events[i]);
    treeEventsTaken_ = events.size();
}

cl::Event NbodySimulation::walkSharedPiece(std::size_t begin, std::size_t count) {
    return clBoundary("N-body shared tree walk failed", [&] {
        if (!walkInPieces()) throw Error("the tree's domain is walked whole on this device");
        if (begin < ownedBegin_ || begin + count > ownedBegin_ + ownedCount_)
            throw Error("tree walk piece " + std::to_string(begin) + " + " + std::to_string(count) +
                        " is outside this device's domain");
        TreeForce& t = tree();
        if (!t.builtForPieces()) {
            // A device that owns every body computed the whole pass (computeForces), which left
            // every body's acceleration in the sorted buffer already: nothing to walk again.
            cl::Event done;
            cc_.queue().enqueueMarkerWithWaitList(nullptr, &done);
            return done;
        }
        // The piece's walk, and before the first piece what the split build's exchange added
        // (the essential records' kernels, the grafts).
        cl::Event e = t.walkSortedPiece(begin, count);
        // After the domain's last piece, what comes on this device's queue (its slice's scatter,
        // the kick) waits for the pieces on the tree's second queue too.
        if (begin + count == ownedBegin_ + ownedCount_) {
            t.joinPieces();
            // Every body's sorted place for gatherSharedForces(), while the other domains' last
            // slices travel: beside the walk it slowed the walk (session 17), and before the walk
            // its copies and it held the exchange back (session 19).
            if (movesEveryBody_) t.invertOrder(cc_.queue());
        }
        takeNewTreeEvents();
        return e;
    });
}

cl::Event NbodySimulation::scatterSharedRange(std::size_t begin, std::size_t count,
                                              cl::CommandQueue& queue,
                                              const std::vector<cl::Event>& after, bool withKick) {
    return scatterSharedRanges({{begin, count}}, queue, after, withKick);
}

cl::Event NbodySimulation::scatterSharedRanges(const std::vector<TreeForce::SortedRange>& ranges,
                                               cl::CommandQueue& queue,
                                               const std::vector<cl::Event>& after, bool withKick) {
    return clBoundary("N-body: returning a slice of the tree's accelerations failed", [&] {
        if (!sharedForcesAreSlices()) throw Error("only the tree's accelerations come in slices");
        if (withKick && movedCount() != n_)
            throw Error("only a device that moves every body kicks them as they are scattered");
        const bool kick = withKick && pendingKick_ != 0;
        cl::Event e = tree().scatterSortedRanges(f32_.acc, ranges, queue, after,
                                                 kick ? &f32_.vel : nullptr, pendingKick_);
        lastEvents_.emplace_back("tree-scatter", e);
        for (const auto& r : ranges) {
            bodiesScattered_ += r.count;
            if (kick) bodiesKicked_ += r.count;
        }
        return e;
    });
}

cl::Event NbodySimulation::gatherSharedForces(cl::CommandQueue& queue,
                                              const std::vector<cl::Event>& after,
                                              const std::vector<TreeForce::SortedRange>& later) {
    return clBoundary("N-body: returning the tree's accelerations to the body order failed", [&] {
        if (!sharedForcesAreSlices()) throw Error("only the tree's accelerations come in slices");
        if (movedCount() != n_)
            throw Error("only a device that moves every body gathers them all at once");
        std::size_t left = 0;
        for (const auto& r : later)
            left += r.count;
        if (left > n_ || bodiesScattered_ + (n_ - left) > n_)
            throw Error("the bodies gathered and scattered would be more than every body (a bug)");
        const bool kick = pendingKick_ != 0;
        TreeForce& t = tree();
        cl::Event e =
            t.gatherSorted(f32_.acc, queue, after, kick ? &f32_.vel : nullptr, pendingKick_, later);
        takeNewTreeEvents();  // the order inverted here, if it was
        lastEvents_.emplace_back("tree-scatter", e);
        bodiesScattered_ += n_ - left;
        if (kick) bodiesKicked_ += n_ - left;
        return e;
    });
}

void NbodySimulation::finishSharedForces() {
    return clBoundary("N-body half-kick after the shared force pass failed", [&] {
        // Ranges that tile every body were scattered already (scatterSharedRange).
        const bool scattered = bodiesScattered_ == n_;
        if (bodiesKicked_ != 0 && (!scattered || bodiesKicked_ != n_))
            throw Error("the scatters that kicked covered " + std::to_string(bodiesKicked_) +
                        " of " + std::to_string(n_) + " bodies (a bug)");
        if (bodiesKicked_ != 0) pendingKick_ = 0;  // kicked as they were scattered
        bodiesScattered_ = bodiesKicked_ = 0;
        // A device that kicks every body does so in the scatter (one kernel instead of two).
        const bool kickInScatter = pendingKick_ != 0 && movedCount() == n_;
        if (n_ && sharedForcesAreSlices() && !scattered) {
            lastEvents_.emplace_back(
                "tree-scatter",
                tree().scatterSorted(f32_.acc, kickInScatter ? &f32_.vel : nullptr, pendingKick_));
            if (kickInScatter) pendingKick_ = 0;
        }
        if (pendingKick_ != 0 && movedCount()) {
            PairForce& f = pairs();
            f.kick(f32_.acc, f32_.vel, movedBegin(), movedCount(), pendingKick_);
            lastEvents_.push_back(f.lastEvents().back());
        }
        pendingKick_ = 0;
        accCurrent_ = true;
    });
}

void NbodySimulation::computeForces(bool kick, float kickFactor) {
    if (forcesAreShared()) {  // the caller sums the devices' parts, then finishSharedForces()
        computeSharedForces();
        pendingKick_ = kick ? kickFactor : 0.0f;
        return;
    }
    if (ownedCount_ == 0) return;  // this device's share is empty
    if (const NbodyKernelConfig c = forceConfig(); c.variant == NbodyVariant::Pairs) {
        PairForce& f = pairs();  // float only: setPrecision, setKernelConfig and autoPick see to it
        f.compute(f32_.pos, n_, params_.softening, f32_.acc, &f32_.vel, kick ? kickFactor : 0.0f,
                  pairShape(c));
        for (const auto& e : f.lastEvents())
            lastEvents_.push_back(e);
        accCurrent_ = true;
        return;
    }
    if (config_.variant == NbodyVariant::Tree) {  // float only (setPrecision/setKernelConfig)
        TreeForce& t = tree();
        applyTreeParams(t);
        t.compute(f32_.pos, n_, params_.softening, f32_.acc, &f32_.vel, kick ? kickFactor : 0.0f);
        for (const auto& e : t.lastEvents())
            lastEvents_.push_back(e);
        accCurrent_ = true;
        afterTreePass();
        return;
    }
    Built& b = built();
    lastEvents_.emplace_back(
        "force", enqueueForce(b, state().acc, ownedBegin_, ownedCount_, kick ? kickFactor : 0.0));
    accCurrent_ = true;
}

// A tree pass was enqueued: every kTreeRenumberPasses passes (the first right after load()) the
// bodies move into its Morton order, at the next advance(), once every use of the pass in the
// old slots is enqueued (a split's exchange and scatter, the closing kick). Only where every
// body is moved here (velocities of bodies moved elsewhere are stale) and the owner allows it
// (setRenumbering: the devices of a split renumber at the same passes or not at all).
void NbodySimulation::afterTreePass() {
    const bool movesAll = movesEveryBody_ || (ownedBegin_ == 0 && ownedCount_ == n_);
    if (!mayRenumber_ || !movesAll || n_ < 2 || precision_ != NbodyPrecision::Float) return;
    if (++passesSinceRenumber_ < kTreeRenumberPasses) return;
    renumberDue_ = true;
    passesSinceRenumber_ = 0;
}

void NbodySimulation::renumberIntoTreeOrder() {
    clBoundary("N-body: renumbering the bodies into the tree's order failed", [&] {
        TreeForce& t = tree();
        const cl::Buffer& order = t.lastOrder();
        auto& q = cc_.queue();
        const int ni = static_cast<int>(n_);
        const cl::NDRange global(roundUp(n_, kElementwiseWg)), local(kElementwiseWg);
        auto enqueued = [&](cl::Event e) { lastEvents_.emplace_back("renumber", e); };
        // The tree's own gather, after the whole order is in (the ids' gather comes after it).
        auto gather = [&](const cl::Buffer& from) {
            enqueued(t.gatherInLastOrder(from, renumberScratch_));
        };
        auto copyBack = [&](cl::Buffer& into) {
            cl::Event e;
            q.enqueueCopyBuffer(renumberScratch_, into, 0, 0, n_ * 16, nullptr, &e);
            enqueued(e);
        };
        // Every buffer it needs is first written before any of the state is: a device that
        // cannot hold them fails here with the state and the slots as they were.
        if (!renumberScratch_())
            renumberScratch_ = cl::Buffer(cc_.context(), CL_MEM_READ_WRITE, n_ * 16);
        if (!ids_()) {
            ids_ = cl::Buffer(cc_.context(), CL_MEM_READ_WRITE, n_ * 4);
            idsSpare_ = cl::Buffer(cc_.context(), CL_MEM_READ_WRITE, n_ * 4);
        }
        gather(f32_.pos);
        cl::Event idsDone;
        if (renumbered_) {  // slot s takes the body of the old slot order[s]
            setArgs(kernels_->gatherUint, ids_, order, ni, idsSpare_);
            q.enqueueNDRangeKernel(kernels_->gatherUint, cl::NullRange, global, local, nullptr,
                                   &idsDone);
        } else {  // the slots were the load order: slot s takes body order[s]
            q.enqueueCopyBuffer(order, idsSpare_, 0, 0, n_ * 4, nullptr, &idsDone);
        }
        enqueued(idsDone);
        copyBack(f32_.pos);
        gather(f32_.vel);
        copyBack(f32_.vel);
        gather(f32_.acc);
        copyBack(f32_.acc);
        std::swap(ids_, idsSpare_);
        renumbered_ = true;
        ++renumberings_;
    });
}

void NbodySimulation::ensureAccelerationsCurrent() {
    if (accCurrent_ || !n_) return;
    if (forcesAreShared())  // a part alone would move the bodies wrongly
        throw Error("the shared " + std::string(variantName(config_.variant)) +
                    " force pass must be summed over the devices before a step");
    computeForces(false, 0);
}

// ---- stepping ---------------------------------------------------------------------------------

void NbodySimulation::convert(cl::Kernel& k, const cl::Buffer& from, const cl::Buffer& to,
                              const char* name) {
    setArgs(k, from, to, static_cast<int>(n_));
    cl::Event ev;
    cc_.queue().enqueueNDRangeKernel(k, cl::NullRange, cl::NDRange(roundUp(n_, kElementwiseWg)),
                                     cl::NDRange(kElementwiseWg), nullptr, &ev);
    if (name) lastEvents_.emplace_back(name, ev);
}

void NbodySimulation::refreshFloatMirror() {
    if (precision_ != NbodyPrecision::Double || !n_) return;
    convert(kernels_->toFloat, f64_.pos, f32_.pos, "to-float");
    convert(kernels_->toFloat, f64_.vel, f32_.vel, "to-float");
}

void NbodySimulation::step(int count) {
    if (!n_ || count <= 0) return;
    beginSteps(count);
    for (int s = 0; s < count; ++s) {
        advance();
        complete();
    }
    endSteps();
}

void NbodySimulation::setOwnedRange(std::size_t begin, std::size_t count) {
    if (begin > n_ || count > n_ - begin)
        throw Error("bodies " + std::to_string(begin) + " + " + std::to_string(count) +
                    " are not all among the " + std::to_string(n_) + " loaded");
    if (begin == ownedBegin_ && count == ownedCount_) return;
    ownedBegin_ = begin;
    ownedCount_ = count;
    // The new bodies' accelerations were computed elsewhere, unless every body's is here.
    if (!holdsEveryForce()) accCurrent_ = false;
    autoN_ = 0;  // the pairs variant competes only while this device owns every body
}

std::size_t NbodySimulation::workingBodyBytes() const {
    return precision_ == NbodyPrecision::Double ? 32 : 16;
}

void NbodySimulation::beginSteps(int count) {
    lastEvents_.clear();
    lastSteps_ = count;
}

// The per-body update kernels (pos, vel, acc, end, then real scalars from argument 4) over the
// moved bodies (the owned ones, or all: setMovesEveryBody): a global offset of their first, and
// `end` bounds the last work-group.
void NbodySimulation::runUpdate(cl::Kernel& k, const char* name,
                                std::initializer_list<double> reals) {
    const std::size_t begin = movedBegin(), count = movedCount();
    if (count == 0) return;
    const StateBuffers& s = state();
    setArgs(k, s.pos, s.vel, s.acc, static_cast<int>(begin + count));
    cl_uint index = 4;
    for (double v : reals)
        setRealArg(k, index++, v, precision_);
    cl::Event ev;
    cc_.queue().enqueueNDRangeKernel(k, cl::NDRange(begin),
                                     cl::NDRange(roundUp(count, kElementwiseWg)),
                                     cl::NDRange(kElementwiseWg), nullptr, &ev);
    lastEvents_.emplace_back(name, ev);
}

void NbodySimulation::advance() {
    return clBoundary(
        [&] { return "N-body step failed (" + describe(effectiveKernelConfig()) + ")"; },
        [&] {
            if (!n_) return;
            const int p = precision_ == NbodyPrecision::Double ? 1 : 0;
            const double dt = params_.dt;
            ensureAccelerationsCurrent();
            if (renumberDue_ && precision_ == NbodyPrecision::Float) renumberIntoTreeOrder();
            renumberDue_ = false;
            if (integrator_ == NbodyIntegrator::Leapfrog) {
                runUpdate(kernels_->kickDrift[p], "kick-drift", {dt / 2, dt, params_.damping});
            } else {
                runUpdate(kernels_->taylor[p], "update", {dt, params_.damping});
                accCurrent_ = false;  // a belongs to the old positions
            }
        });
}

void NbodySimulation::complete() {
    return clBoundary(
        [&] { return "N-body step failed (" + describe(effectiveKernelConfig()) + ")"; },
        [&] {
            if (!n_) return;
            if (integrator_ == NbodyIntegrator::Leapfrog)
                computeForces(true, static_cast<float>(params_.dt / 2));  // exact: dt is float
            time_ += params_.dt;
            ++steps_;
        });
}

void NbodySimulation::endSteps() {
    return clBoundary(
        [&] { return "N-body step failed (" + describe(effectiveKernelConfig()) + ")"; },
        [&] {
            refreshFloatMirror();
            cc_.queue().flush();
        });
}

NbodyStepTimings NbodySimulation::lastStepTimings() {
    return clBoundary("cannot read the N-body kernel timings", [&] {
        NbodyStepTimings t;
        t.steps = lastSteps_;
        t.bodies = static_cast<long long>(n_);
        // Busy time, not summed durations: the tree's walk pieces run on two queues at once.
        using Spans = std::vector<std::pair<double, double>>;
        Spans all, force;
        std::vector<Spans> byKernel;
        for (const auto& [name, ev] : lastEvents_) {
            ev.wait();
            const std::pair<double, double> span = {
                static_cast<double>(ev.getProfilingInfo<CL_PROFILING_COMMAND_START>()) * 1e-6,
                static_cast<double>(ev.getProfilingInfo<CL_PROFILING_COMMAND_END>()) * 1e-6};
            all.push_back(span);
            if (name.rfind("force", 0) == 0 || name.rfind("tree-", 0) == 0) force.push_back(span);
            auto it = std::find_if(t.kernels.begin(), t.kernels.end(),
                                   [&](const NbodyKernelTime& k) { return k.kernel == name; });
            if (it == t.kernels.end()) {
                t.kernels.push_back({name, 0, 1});
                byKernel.push_back({span});
            } else {
                ++it->launches;
                byKernel[static_cast<std::size_t>(it - t.kernels.begin())].push_back(span);
            }
        }
        t.kernelMs = busyTime(all);
        t.forceMs = busyTime(force);
        for (std::size_t k = 0; k < t.kernels.size(); ++k)
            t.kernels[k].ms = busyTime(byKernel[k]);
        const NbodyVariant ran =
            config_.variant == NbodyVariant::Tree ? NbodyVariant::Tree : forceConfig().variant;
        countNbodyWork(
            t, ran, precision_ == NbodyPrecision::Double,
            ran == NbodyVariant::Tree && tree_ ? tree_->lastWalkStats().interactionsPerBody : 0);
        return t;
    });
}

std::vector<TreeForce::Copy> NbodySimulation::lastTreeCopies() const {
    return tree_ ? tree_->lastCopies() : std::vector<TreeForce::Copy>();
}

std::string NbodySimulation::commandOf(const cl::Event& e) const {
    return tree_ ? tree_->commandNames().of(e) : std::string();
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
    auto make = [&](StateBuffers& s, std::size_t bytesPerBody) {
        for (cl::Buffer* b : {&s.pos, &s.vel, &s.acc})
            *b = cl::Buffer(cc_.context(), CL_MEM_READ_WRITE, n * bytesPerBody);
    };
    clBoundary([&] { return "cannot allocate device memory for " + std::to_string(n) + " bodies"; },
               [&] {
                   if (floatState) make(f32_, 16);
                   if (doubleState) make(f64_, 32);
               });
}

void NbodySimulation::load(const std::vector<Body>& bodies) {
    if (bodies.empty()) throw Error("cannot load an empty set of bodies (need N >= 1)");
    if (bodies.size() > kMaxBodies)
        throw Error(std::to_string(bodies.size()) + " bodies is more than clviz accepts (" +
                    std::to_string(kMaxBodies) + ")");
    inFlight_.reset();  // a measurement of the old bodies
    if (bodies.size() != n_) {
        n_ = ownedBegin_ = ownedCount_ = 0;
        ids_ = idsSpare_ = renumberScratch_ = cl::Buffer();
        allocate(bodies.size(), true, precision_ == NbodyPrecision::Double);
        n_ = bodies.size();
    }
    renumbered_ = renumberDue_ = false;              // the slots are load()'s order again
    passesSinceRenumber_ = kTreeRenumberPasses - 1;  // the first tree pass renumbers
    ownedBegin_ = 0;
    ownedCount_ = n_;
    movesEveryBody_ = false;
    kernels_->current = nullptr;  // small-n's split and the tuned config depend on N
    uploadState(bodies);
    time_ = 0;
    steps_ = 0;
    energyReference_.reset();
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
    clBoundary("cannot upload the bodies to the device", [&] {
        q.enqueueWriteBuffer(f32_.pos, CL_TRUE, 0, n * 16, pos.data());
        q.enqueueWriteBuffer(f32_.vel, CL_TRUE, 0, n * 16, vel.data());
        if (precision_ == NbodyPrecision::Double) {
            std::vector<double> pd(4 * n), vd(4 * n);
            for (std::size_t i = 0; i < n; ++i) {
                const Float4 &p = pos[i], &v = vel[i];
                pd[4 * i] = p.x, pd[4 * i + 1] = p.y, pd[4 * i + 2] = p.z, pd[4 * i + 3] = p.w;
                vd[4 * i] = v.x, vd[4 * i + 1] = v.y, vd[4 * i + 2] = v.z, vd[4 * i + 3] = v.w;
            }
            q.enqueueWriteBuffer(f64_.pos, CL_TRUE, 0, n * 32, pd.data());
            q.enqueueWriteBuffer(f64_.vel, CL_TRUE, 0, n * 32, vd.data());
        }
    });
    accCurrent_ = false;
}

std::vector<std::uint32_t> NbodySimulation::readSlotIds() {
    return clBoundary("cannot read the bodies' slots back from the device", [&] {
        std::vector<std::uint32_t> ids;
        if (!renumbered_ || !n_) return ids;
        ids.resize(n_);
        cc_.queue().enqueueReadBuffer(ids_, CL_TRUE, 0, n_ * 4, ids.data());
        return ids;
    });
}

// The slots' ids are read after the values: a force pass the read runs first may renumber.
std::vector<Body> NbodySimulation::readBodies() {
    std::vector<Body> bySlot = readSlotBodies();
    return inLoadOrder(std::move(bySlot), readSlotIds());
}

std::vector<Float4> NbodySimulation::readAccelerations() {
    std::vector<Float4> bySlot = readSlotAccelerations();
    return inLoadOrder(std::move(bySlot), readSlotIds());
}

std::vector<double> NbodySimulation::readAccelerationsDouble() {
    std::vector<double> bySlot = readSlotAccelerationsDouble();
    return inLoadOrder(std::move(bySlot), readSlotIds(), 4);
}

std::vector<Body> NbodySimulation::readSlotBodies() {
    return clBoundary("cannot read the bodies back from the device", [&] {
        std::vector<Float4> pos(n_), vel(n_);
        if (n_) {
            cc_.queue().enqueueReadBuffer(f32_.pos, CL_TRUE, 0, n_ * 16, pos.data());
            cc_.queue().enqueueReadBuffer(f32_.vel, CL_TRUE, 0, n_ * 16, vel.data());
        }
        std::vector<Body> out(n_);
        for (std::size_t i = 0; i < n_; ++i)
            out[i] = {pos[i], vel[i]};
        return out;
    });
}

std::vector<Float4> NbodySimulation::readSlotAccelerations() {
    return clBoundary("cannot read the accelerations back from the device", [&] {
        std::vector<Float4> out(n_);
        if (!n_) return out;
        ensureAccelerationsCurrent();
        if (precision_ == NbodyPrecision::Double) {
            std::vector<double> d(4 * n_);
            cc_.queue().enqueueReadBuffer(f64_.acc, CL_TRUE, 0, n_ * 32, d.data());
            for (std::size_t i = 0; i < n_; ++i)
                out[i] = {float(d[4 * i]), float(d[4 * i + 1]), float(d[4 * i + 2]),
                          float(d[4 * i + 3])};
        } else {
            cc_.queue().enqueueReadBuffer(f32_.acc, CL_TRUE, 0, n_ * 16, out.data());
        }
        return out;
    });
}

std::vector<double> NbodySimulation::readSlotAccelerationsDouble() {
    return clBoundary("cannot read the accelerations back from the device", [&] {
        std::vector<double> out(4 * n_);
        if (!n_) return out;
        if (precision_ == NbodyPrecision::Double) {
            ensureAccelerationsCurrent();
            cc_.queue().enqueueReadBuffer(f64_.acc, CL_TRUE, 0, n_ * 32, out.data());
        } else {
            const auto f = readSlotAccelerations();
            for (std::size_t i = 0; i < n_; ++i)
                out[4 * i] = f[i].x, out[4 * i + 1] = f[i].y, out[4 * i + 2] = f[i].z,
                        out[4 * i + 3] = f[i].w;
        }
        return out;
    });
}

TreeAccuracy NbodySimulation::forceAccuracy(int samples) {
    return clBoundary("cannot sample the N-body force accuracy", [&]() -> TreeAccuracy {
        if (!n_ || precision_ == NbodyPrecision::Double) return {};
        if (forcesAreShared()) {
            if (config_.variant != NbodyVariant::Tree) return {};  // holds parts, not accelerations
            // This device holds its share's part of the others' accelerations: it measures a whole
            // tree pass of its own instead, which is the split's answer (the same tree and forces).
            cl::Buffer whole(cc_.context(), CL_MEM_READ_WRITE, n_ * sizeof(cl_float4));
            applyTreeParams(tree());
            tree().compute(f32_.pos, n_, params_.softening, whole);
            return tree().accuracy(f32_.pos, n_, params_.softening, whole, samples);
        }
        ensureAccelerationsCurrent();
        return tree().accuracy(f32_.pos, n_, params_.softening, f32_.acc, samples);
    });
}

bool NbodySimulation::beginForceAccuracy(int samples) {
    return clBoundary("cannot sample the N-body force accuracy", [&] {
        if (!n_ || precision_ == NbodyPrecision::Double || forcesAreShared() ||
            config_.variant != NbodyVariant::Tree)
            return false;
        ensureAccelerationsCurrent();  // enqueued only
        tree().beginAccuracy(f32_.pos, n_, params_.softening, f32_.acc, samples);
        return true;
    });
}

std::optional<TreeAccuracy> NbodySimulation::pollForceAccuracy() {
    return tree_ ? tree_->pollAccuracy() : std::nullopt;
}

TreeWalkStats NbodySimulation::treeWalkStats() {
    return tree_ ? tree_->lastWalkStats() : TreeWalkStats{};
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
    if (const auto why = kThetaFarRange.problem(p.thetaFar)) throw Error(*why);
    if ((p.theta != params_.theta || p.thetaFar != params_.thetaFar) &&
        config_.variant == NbodyVariant::Tree)
        accCurrent_ = false;
    if (p.softening != params_.softening) {
        accCurrent_ = false;          // a(x) depends on it
        energyReference_.reset();     // and so does the potential energy
        kernels_->current = nullptr;  // eps == 0 switches the self-interaction guard
    }
    params_ = p;
}

void NbodySimulation::setIntegrator(NbodyIntegrator i) {
    integrator_ = i;
}

void NbodySimulation::setKernelConfig(const NbodyKernelConfig& c) {
    const auto check = [](const char* what, int v, int lo, int hi) {
        if (v != 0 && (v < lo || v > hi || (v & (v - 1)) != 0))
            throw Error(std::string(what) + " must be 0 (default) or a power of two in [" +
                        std::to_string(lo) + ", " + std::to_string(hi) + "], got " +
                        std::to_string(v));
    };
    const auto& sizes = workGroupSizeChoices();
    check("work-group size", c.workGroupSize, 1, sizes.empty() ? 1 : sizes.back());
    check("unroll", c.unroll, 1, 1024);
    check("bodies per item", c.bodiesPerItem, 1, 8);
    check("split", c.split, 1, 32);
    if (runsOnOneDeviceInFloat(c.variant) && precision_ == NbodyPrecision::Double)
        throw Error(std::string("the ") + variantName(c.variant) +
                    " variant computes in float only: switch the precision to float first");
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
    return clBoundary("cannot switch the N-body precision", [&] {
        if (p == precision_) return;
        if (p == NbodyPrecision::Double && !supportsFp64())
            throw Error(cc_.info().name + " has no cl_khr_fp64: double precision is not available");
        if (p == NbodyPrecision::Double && runsOnOneDeviceInFloat(config_.variant))
            throw Error(std::string("the ") + variantName(config_.variant) +
                        " variant computes in float only: pick an all-pairs variant for fp64");
        if (!kernels_->toFloat()) fetchDoubleKernels(*kernels_);
        if (p == NbodyPrecision::Double) {
            precision_ = p;
            if (n_) {
                try {
                    allocate(n_, false, true);
                } catch (...) {
                    precision_ = NbodyPrecision::Float;
                    throw;
                }
                convert(kernels_->toDouble, f32_.pos, f64_.pos, nullptr);
                convert(kernels_->toDouble, f32_.vel, f64_.vel, nullptr);
                convert(kernels_->toDouble, f32_.acc, f64_.acc, nullptr);
            }
        } else {
            if (n_) {
                convert(kernels_->toFloat, f64_.pos, f32_.pos, nullptr);
                convert(kernels_->toFloat, f64_.vel, f32_.vel, nullptr);
                convert(kernels_->toFloat, f64_.acc, f32_.acc, nullptr);
                cc_.queue().finish();
            }
            f64_ = StateBuffers{};
            precision_ = p;
        }
        kernels_->current = nullptr;
    });
}

}  // namespace clviz
