#include "compute/nbody/multi/multi_device_simulation.hpp"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <functional>

#include "common/elapsed.hpp"
#include "common/error.hpp"
#include "compute/core/cl_boundary.hpp"
#include "compute/core/compute_context.hpp"
#include "compute/core/profiling.hpp"
#include "compute/nbody/body_slots.hpp"
#include "compute/nbody/multi/completion_clock.hpp"
#include "compute/nbody/multi/shared_forces.hpp"
#include "compute/nbody/multi/slice_gather.hpp"
#include "compute/nbody/tree/split_build.hpp"
#include "compute/nbody/tree/tree_force.hpp"

namespace clviz {

double NbodyMultiTimings::interactionsPerSecond() const {
    if (stepMs <= 0) return 0;
    return static_cast<double>(bodies) * static_cast<double>(bodies) / (stepMs * 1e-3);
}

// Pinned host memory the slices travel through. Positions use two halves on alternate steps (a
// fast device may read step k+1's slice while a slow one still uploads step k's); SliceGather
// also waits for the last call's uploads before it writes the host area again.
struct NbodyMultiDevice::Staging {
    ComputeContext* owner = nullptr;
    cl::Buffer buffer;
    char* host = nullptr;
    std::size_t halfBytes = 0;

    Staging(ComputeContext& cc, std::size_t bytes, std::size_t halves = 2,
            const char* what = "the position exchange")
        : owner(&cc), halfBytes(bytes) {
        clBoundary(
            [&] {
                return "cannot allocate " + formatBytes(halves * bytes) +
                       " of pinned host memory for " + what;
            },
            [&] {
                buffer = cl::Buffer(cc.context(), CL_MEM_ALLOC_HOST_PTR | CL_MEM_READ_WRITE,
                                    halves * bytes);
                host = static_cast<char*>(cc.queue().enqueueMapBuffer(
                    buffer, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0, halves * bytes));
            });
    }
    ~Staging() {
        try {
            owner->queue().enqueueUnmapMemObject(buffer, host);
            owner->queue().finish();
        } catch (const cl::Error&) {
            // Shutdown: the context goes away with it.
        }
    }
    char* half(int parity) { return host + (parity ? halfBytes : 0); }
};

NbodyMultiDevice::NbodyMultiDevice(const std::vector<ComputeContext*>& devices,
                                   NbodyEnvironment env)
    : contexts_(devices) {
    if (devices.empty()) throw Error("the multi-device N-body needs at least one device");
    for (ComputeContext* cc : devices) {
        sims_.push_back(std::make_unique<NbodySimulation>(*cc, env));
        // Several devices renumber their bodies only all together (setIntegrationForSteps).
        sims_.back()->setRenumbering(devices.size() == 1);
        // First guess of relative speed; the measured force times replace it after a step.
        const DeviceInfo& info = cc->info();
        weights_.push_back(std::max(1.0, double(info.computeUnits) * std::max(1u, info.clockMHz)));
    }
    setTreeWalkPieces(walkPieces_);
    transferEvents_.resize(sims_.size());
    waitMs_.assign(sims_.size(), 0.0);
    hostSumMs_.assign(sims_.size(), 0.0);
    hostEnqueueMs_.assign(sims_.size(), 0.0);
    hostSpans_.resize(sims_.size());
    team_ = std::make_unique<ThreadTeam>(sims_.size());
}

void NbodyMultiDevice::namingDevice(std::size_t d, const std::function<void()>& work) {
    if (sims_.size() == 1) return work();  // one device: nothing to tell apart
    const auto named = [&](const std::string& what) {
        return "device " + std::to_string(d) + " (" + contexts_[d]->info().name + "): " + what;
    };
    try {
        work();
    } catch (const ClError& e) {
        throw ClError(named(e.doing()), e.call(), e.code());
    } catch (const Error& e) {
        throw Error(named(e.what()));
    }
}

void NbodyMultiDevice::onEveryDevice(const std::function<void(std::size_t device)>& task) {
    team_->run([&](std::size_t d) {
        const auto start = std::chrono::steady_clock::now();
        namingDevice(d, [&] { task(d); });
        hostEnqueueMs_[d] += msSince(start);  // each member its own element
    });
}

NbodyMultiDevice::~NbodyMultiDevice() {
    try {
        if (gather_) gather_->finish();  // copies that read the host areas freed below
    } catch (const cl::Error&) {
        // Shutdown: the contexts go away with it.
    }
    for (ComputeContext* cc : contexts_)
        cc->finishQuietly();  // their last commands wait for the transfer queues' copies too
}

// Before a host area is freed or replaced: every copy that reads it is done (each device's own
// queue, and the transfer queues of SliceGather, which the own queues do not cover until their
// barrier runs).
void NbodyMultiDevice::finishTransfers() {
    if (gather_) gather_->finish();
    for (ComputeContext* cc : contexts_)
        cc->queue().finish();
}

void NbodyMultiDevice::load(const std::vector<Body>& bodies) {
    for (auto& sim : sims_)
        sim->load(bodies);
    n_ = bodies.size();
    time_ = 0;
    steps_ = 0;
    rebalances_ = 0;
    balancer_.reset();
    lastSteps_ = 0;
    energyReference_.reset();
    slices_ = planSlices(n_, weights_);
    for (std::size_t d = 0; d < sims_.size(); ++d)
        sims_[d]->setOwnedRange(slices_[d].begin, slices_[d].count);
    applyTreeDomains();
    statesAlike_ = true;  // every device got every body
    integration_ = {};
}

void NbodyMultiDevice::step(int count) {
    if (!n_ || count <= 0) return;
    if (autoBalance_ && lastSteps_ > 0) {
        std::vector<double> forceMs;
        for (auto& sim : sims_)
            forceMs.push_back(balancedForceMs(sim->lastStepTimings()));
        if (auto slices = balancer_.update(slices_, forceMs, lastSteps_)) {
            applySlices(*slices);
            ++rebalances_;
        }
    }
    integration_ = decideIntegration();
    setIntegrationForSteps(integration_.replicated);
    for (std::size_t d = 0; d < sims_.size(); ++d) {
        sims_[d]->beginSteps(count);
        transferEvents_[d].clear();
        waitMs_[d] = 0;
        hostSumMs_[d] = 0;
        hostEnqueueMs_[d] = 0;
        hostSpans_[d].clear();
    }
    const auto start = std::chrono::steady_clock::now();
    const bool shared = sharedForces();
    if (shared && sims_[0]->kernelConfig().variant == NbodyVariant::Pairs) {
        // The blocks' meetings are shared out by index: every device must cut the same blocks.
        std::vector<int> blockBodies;
        for (auto& sim : sims_) {
            const NbodyKernelConfig c = sim->effectiveKernelConfig();
            blockBodies.push_back(c.workGroupSize * c.bodiesPerItem);
        }
        if (std::adjacent_find(blockBodies.begin(), blockBodies.end(), std::not_equal_to<>()) !=
            blockBodies.end())
            throw Error(
                "the pairs variant on several devices needs the same blocks on every "
                "device (work-group size x bodies per item), and these devices resolve "
                "different ones: set nbody.wg and nbody.bpi");
    }
    // A force kernel not built yet is built now, one device at a time, as the viewer's prepare
    // job does: auto times its candidates on each device alone.
    for (std::size_t d = 0; d < sims_.size(); ++d)
        if (!sims_[d]->forceKernelReady())
            namingDevice(d, [&] { sims_[d]->effectiveKernelConfig(); });
    // Replicated (or one device): every device drifted every body the same way, nothing to send
    // between its advance and its force pass, so one thread per device enqueues both.
    const bool sendPositions = sims_.size() > 1 && !integration_.replicated;
    for (int s = 0; s < count; ++s) {
        if (shared) ensureSummedForces();
        if (sendPositions) {
            onEveryDevice([&](std::size_t d) { sims_[d]->advance(); });
            exchangePositions(static_cast<int>(steps_ & 1));
            onEveryDevice([&](std::size_t d) { sims_[d]->complete(); });
        } else {
            onEveryDevice([&](std::size_t d) {
                sims_[d]->advance();
                sims_[d]->complete();
            });
        }
        // Leapfrog's force pass ran in complete(); a device that owns every body computed it
        // whole and kicked, and adds its acc to the others' zeros unchanged.
        if (shared && sims_[0]->integrator() == NbodyIntegrator::Leapfrog) sumSharedForces();
        time_ += sims_[0]->params().dt;
        ++steps_;
    }
    for (auto& sim : sims_)
        sim->endSteps();
    statesAlike_ = integration_.replicated || sims_.size() == 1;  // owners: others' v are stale
    lastSteps_ = count;
    // The wall time ends when the last device finishes; waiting here keeps it honest for the
    // benchmark, and the viewer waited at every exchange anyway. Each wait is a span of its
    // device's host lane: a timeline then shows which device's end the host noticed late.
    for (std::size_t d = 0; d < contexts_.size(); ++d) {
        const auto waiting = std::chrono::steady_clock::now();
        contexts_[d]->queue().finish();
        hostSpans_[d].push_back({"wait for the end", waiting, std::chrono::steady_clock::now()});
    }
    lastWallMs_ = msSince(start);
    // The timeline's frame: what the host spent before the first command and after the last.
    hostSpans_[0].push_back({"step (wall clock)", start, std::chrono::steady_clock::now()});
}

void NbodyMultiDevice::exchangePositions(int parity) {
    return clBoundary("the N-body position exchange between devices failed", [&] {
        const std::size_t bytes = sims_[0]->workingBodyBytes();
        if (!staging_ || staging_->halfBytes != n_ * bytes) {
            finishTransfers();  // the old area is read until then
            staging_.reset();
            staging_ = std::make_unique<Staging>(*contexts_[0], n_ * bytes);
        }
        char* host = staging_->half(parity);
        std::vector<const cl::Buffer*> buffers;
        for (auto& sim : sims_)
            buffers.push_back(&sim->workingPositions());
        addWaits(gather().run(buffers, slices_, bytes, host, transferEvents_));
    });
}

SliceGather& NbodyMultiDevice::gather() {
    if (!gather_) gather_ = std::make_unique<SliceGather>(contexts_);
    return *gather_;
}

// Idle time at an exchange: how long after its own slice reached the host each device waited
// for the last one.
void NbodyMultiDevice::addWaits(const std::vector<double>& doneMs) {
    const double last = *std::max_element(doneMs.begin(), doneMs.end());
    for (std::size_t d = 0; d < doneMs.size(); ++d)
        waitMs_[d] += last - doneMs[d];
}

bool NbodyMultiDevice::sharedForces() const {
    return sims_.size() > 1 && runsOnOneDeviceInFloat(sims_[0]->kernelConfig().variant);
}

// A force pass of its own (after load, re-slicing, a new force method, or Taylor's update) runs
// on every device: each adds its part to every body's acceleration.
void NbodyMultiDevice::ensureSummedForces() {
    bool current = true;
    for (auto& sim : sims_)
        current = current && sim->accelerationsCurrent();
    if (current) return;
    onEveryDevice([&](std::size_t d) { sims_[d]->computeSharedForces(); });
    sumSharedForces();
}

// Every device's part out to the host (N x 16 bytes each), the sums of each slice back to its
// owner (its slice x 16 bytes), then the owners' closing half-kicks. The next step's reads come
// after these uploads on each in-order queue, so one host area serves every step.
void NbodyMultiDevice::sumSharedForces() {
    if (sims_[0]->sharedForcesAreSlices())
        exchangeForceSlices();
    else
        sumForceParts();
}

void NbodyMultiDevice::sumForceParts() {
    return clBoundary("the sum of the N-body accelerations over the devices failed", [&] {
        const std::size_t bytes = n_ * sizeof(cl_float4);
        const std::size_t p = sims_.size();
        if (!accStaging_ || accStaging_->halfBytes != p * bytes) {
            finishTransfers();  // the old area is read until then
            accStaging_.reset();
            accStaging_ = std::make_unique<Staging>(*contexts_[0], p * bytes, 1,
                                                    "the sum of the accelerations");
        }
        CompletionClock clock(p);
        std::vector<float*> parts;
        for (std::size_t d = 0; d < p; ++d) {
            char* part = accStaging_->host + d * bytes;
            parts.push_back(reinterpret_cast<float*>(part));
            cl::Event ev;
            contexts_[d]->queue().enqueueReadBuffer(sims_[d]->workingAccelerations(), CL_FALSE, 0,
                                                    bytes, part, nullptr, &ev);
            clock.watch(d, ev);
            transferEvents_[d].push_back(ev);
            contexts_[d]->queue().flush();
        }
        const std::vector<double> done = clock.wait();
        const double last = *std::max_element(done.begin(), done.end());
        for (std::size_t d = 0; d < p; ++d)
            waitMs_[d] += last - done[d];
        const auto sumStart = std::chrono::steady_clock::now();
        sumSharedAccelerations(parts, slices_);
        const double sumMs = msSince(sumStart);
        for (std::size_t d = 0; d < p; ++d) {
            hostSumMs_[d] += sumMs;
            const BodySlice& sl = slices_[d];
            if (sl.count) {
                cl::Event ev;
                contexts_[d]->queue().enqueueWriteBuffer(
                    sims_[d]->workingAccelerations(), CL_FALSE, sl.begin * sizeof(cl_float4),
                    sl.count * sizeof(cl_float4),
                    reinterpret_cast<char*>(parts[d]) + sl.begin * sizeof(cl_float4), nullptr, &ev);
                transferEvents_[d].push_back(ev);
            }
            sims_[d]->finishSharedForces();
            contexts_[d]->queue().flush();
        }
    });
}

void NbodyMultiDevice::setTreeWalkPieces(int pieces) {
    if (pieces < 1 || pieces > kMostWalkPieces)
        throw Error("the tree's walk pieces per device must be 1 .. " +
                    std::to_string(kMostWalkPieces) + ", got " + std::to_string(pieces));
    walkPieces_ = pieces;
    applyTreeDomains();
}

void NbodyMultiDevice::setTreeSplitBuild(bool on) {
    splitBuild_ = on;
    applyTreeDomains();
}

// Between steps: no built tree waits for its walk. The split build walks in pieces (its exchange
// comes between the build and the walk), one piece or more.
void NbodyMultiDevice::applyTreeDomains() {
    // A device that owns every body computes the whole tree (no shared pass), so the others must
    // too: their scatter needs the whole sorted order.
    bool split = splitBuild_ && sims_.size() > 1 && slices_.size() == sims_.size();
    for (const BodySlice& s : slices_)
        split = split && s.count < n_;
    std::vector<std::size_t> bounds;
    if (split) {
        bounds.push_back(0);
        for (const BodySlice& s : slices_)
            bounds.push_back(s.begin + s.count);
    }
    for (std::size_t d = 0; d < sims_.size(); ++d) {
        sims_[d]->setWalkInPieces(split || (walkPieces_ > 1 && sims_.size() > 1));
        sims_[d]->setTreeDomains(bounds, d);
    }
}

void NbodyMultiDevice::exchangeEssentialTrees() {
    return clBoundary(
        "the exchange of the N-body tree's essential nodes between devices failed", [&] {
            std::vector<TreeForce*> trees;
            for (auto& sim : sims_)
                trees.push_back(&sim->splitTree());
            clviz::exchangeEssentialTrees(
                trees, everyDevice(),
                [&](std::size_t d, const char* phase, std::chrono::steady_clock::time_point start,
                    std::chrono::steady_clock::time_point end) {
                    hostSpans_[d].push_back({phase, start, end});  // each thread its own device's
                });
        });
}

// The tree: each device's domain, its slice of the sorted accelerations (slice x 16 bytes, or 12
// packed where walked in pieces), out to one host area at its place; then every device gets the
// other domains' slices, returns them to the body order and kicks its bodies. Nothing is added,
// so the accelerations are one device's walk exactly. Walked in pieces, each piece's slice
// travels while the next piece is walked, so only the last piece's copies wait for the walk.
void NbodyMultiDevice::exchangeForceSlices() {
    return clBoundary("the exchange of the N-body tree accelerations between devices failed", [&] {
        constexpr std::size_t kMostBytes = sizeof(cl_float4);
        if (!accStaging_ || accStaging_->halfBytes != n_ * kMostBytes) {
            finishTransfers();  // the old area is read until then
            accStaging_.reset();
            accStaging_ = std::make_unique<Staging>(*contexts_[0], n_ * kMostBytes, 1,
                                                    "the exchange of the accelerations");
        }
        if (sims_[0]->treeDomainsSet()) exchangeEssentialTrees();
        // Walked in pieces on every device, the slices travel packed: 12 bytes a body, without
        // the potential, which only the diagnostics of one device read.
        const bool packed = std::all_of(sims_.begin(), sims_.end(),
                                        [](const auto& sim) { return sim->forceSlicesPackable(); });
        const std::size_t bytesPerBody = packed ? 3 * sizeof(cl_float) : kMostBytes;
        std::vector<const cl::Buffer*> buffers;
        for (auto& sim : sims_) {
            buffers.push_back(packed ? &sim->sharedForceSlicesPacked() : &sim->sharedForceSlices());
            if (packed) sim->takeForceSlicesPacked();
        }
        // Devices that kick only their own slice return each slice and each chunk of the others'
        // to the body order on their own queue after their walk, while the last piece's copies
        // are in flight (beside the walk the scatters slowed it as much as they saved). Devices
        // that kick every body (replicated) gather the accelerations of the bodies outside every
        // domain's last piece and kick them in one kernel once those are in (after their own
        // walk, while the last pieces' copies travel), then scatter and kick the last pieces'
        // bodies as they come: gathering writes in body order, where scatters of the whole
        // domains had written at scattered places, several times slower (session 17).
        const bool scatterOnArrival = !sims_[0]->movesEveryBody();
        const std::size_t p = sims_.size();
        std::vector<BodySlice> last(p);  // each domain's last piece, walked and sent last
        std::vector<TreeForce::SortedRange> later;
        for (std::size_t d = 0; d < p; ++d) {
            const auto pieces =
                cutIntoPieces(slices_[d], static_cast<std::size_t>(walkPieces_), walkHalving_);
            last[d] = pieces.empty() ? BodySlice{slices_[d].begin, 0} : pieces.back();
            if (last[d].count) later.push_back({last[d].begin, last[d].count});
        }
        // More domains than one gather can leave out: every body waits for every slice.
        static_assert(TreeForce::kMostScatterRanges >= TreeForce::kMostGatherSkips);
        if (later.size() > TreeForce::kMostGatherSkips) {
            for (std::size_t d = 0; d < p; ++d)
                last[d] = {slices_[d].end(), 0};
            later.clear();
        }
        struct Incoming {  // of the other domains' bodies on their way to one device
            std::size_t earlyLeft = 0, lateLeft = 0;
            std::vector<cl::Event> early, late;
            bool earlyDone = false, lateDone = false;
        };
        std::vector<Incoming> incoming(p);
        for (std::size_t d = 0; d < p; ++d)
            for (std::size_t e = 0; e < p; ++e)
                if (e != d) {
                    incoming[d].earlyLeft += slices_[e].count - last[e].count;
                    incoming[d].lateLeft += last[e].count;
                }
        const SliceGather::Arrival arrival =
            scatterOnArrival
                ? SliceGather::Arrival([&](std::size_t d, std::size_t begin, std::size_t count,
                                           const cl::Event& copied) {
                      return sims_[d]->scatterSharedRange(begin, count, contexts_[d]->queue(),
                                                          {copied});
                  })
                : SliceGather::Arrival([&](std::size_t d, std::size_t begin, std::size_t count,
                                           const cl::Event& copied) {
                      Incoming& in = incoming[d];
                      // A chunk lies within one piece: late if within some domain's last.
                      const bool late = std::any_of(
                          last.begin(), last.end(),
                          [&](const BodySlice& l) { return begin >= l.begin && begin < l.end(); });
                      (late ? in.late : in.early).push_back(copied);
                      (late ? in.lateLeft : in.earlyLeft) -= count;
                      cl::Event e = copied;
                      if (!in.earlyDone && in.earlyLeft == 0) {
                          in.earlyDone = true;
                          e = sims_[d]->gatherSharedForces(contexts_[d]->queue(), in.early, later);
                      }
                      if (in.earlyDone && !in.lateDone && in.lateLeft == 0) {
                          in.lateDone = true;  // every domain's last piece in one launch
                          if (!later.empty())
                              e = sims_[d]->scatterSharedRanges(later, contexts_[d]->queue(),
                                                                in.late, true);
                      }
                      return e;
                  });
        if (sims_[0]->walkInPieces())
            addWaits(gather().run(
                buffers, slices_, bytesPerBody, accStaging_->host, transferEvents_,
                static_cast<std::size_t>(walkPieces_),
                [&](std::size_t d, std::size_t begin, std::size_t count) {
                    const auto start = std::chrono::steady_clock::now();
                    cl::Event walked = sims_[d]->walkSharedPiece(begin, count);
                    if (scatterOnArrival && begin + count == slices_[d].end())
                        sims_[d]->scatterSharedRange(slices_[d].begin, slices_[d].count,
                                                     contexts_[d]->queue());
                    // When the host enqueued each piece, for the step's timeline.
                    hostSpans_[d].push_back(
                        {"walk piece", start, std::chrono::steady_clock::now()});
                    return walked;
                },
                walkHalving_, arrival, everyDevice()));
        else
            addWaits(
                gather().run(buffers, slices_, bytesPerBody, accStaging_->host, transferEvents_));
        onEveryDevice([&](std::size_t d) {
            sims_[d]->finishSharedForces();
            contexts_[d]->queue().flush();
        });
    });
}

// New owners need the velocities of the bodies they take over (unless every device already
// holds every body's: after load or replicated steps); every device already has every position,
// and each recomputes the accelerations of its new slice at its next step (split pairs and tree:
// every device, since every device adds to every body), unless every device holds every body's.
void NbodyMultiDevice::applySlices(const std::vector<BodySlice>& slices) {
    // After replicated leapfrog steps of the tree every device holds every body's acceleration,
    // so the next step needs no force pass whatever the slices.
    const bool keepForces = std::all_of(sims_.begin(), sims_.end(),
                                        [](const auto& sim) { return sim->holdsEveryForce(); });
    if (!statesAlike_) shareOwnersVelocities();
    for (std::size_t d = 0; d < sims_.size(); ++d) {
        sims_[d]->setOwnedRange(slices[d].begin, slices[d].count);
        if (!keepForces) sims_[d]->invalidateAccelerations();
    }
    slices_ = slices;
    applyTreeDomains();
}

// Each owner's velocities to every device. Between steps every device holds every position, so
// afterwards every device holds the whole state.
void NbodyMultiDevice::shareOwnersVelocities() {
    return clBoundary("cannot move the N-body velocities between devices", [&] {
        const std::size_t bytes = sims_[0]->workingBodyBytes();
        std::vector<char> vel(n_ * bytes);
        for (std::size_t d = 0; d < sims_.size(); ++d)
            if (slices_[d].count)
                contexts_[d]->queue().enqueueReadBuffer(
                    sims_[d]->workingVelocities(), CL_TRUE, slices_[d].begin * bytes,
                    slices_[d].count * bytes, vel.data() + slices_[d].begin * bytes);
        for (std::size_t d = 0; d < sims_.size(); ++d) {
            contexts_[d]->queue().enqueueWriteBuffer(sims_[d]->workingVelocities(), CL_TRUE, 0,
                                                     vel.size(), vel.data());
            sims_[d]->endSteps();  // fp64: the float copies (readBodies, the viewer) follow
        }
        statesAlike_ = true;
    });
}

NbodyTreeIntegrationChoice NbodyMultiDevice::decideIntegration() {
    std::vector<NbodyDeviceIdentity> ids;
    if (sims_.size() > 1)
        for (ComputeContext* cc : contexts_)
            ids.push_back(deviceIdentity(*cc));
    return chooseTreeIntegration(integrationMode_, ids,
                                 sharedForces() && sims_[0]->sharedForcesAreSlices());
}

// Replicated steps need every device to start from the whole state: after owners' steps the
// others' velocities are stale, and the accelerations may be a part (another variant ran), so
// the velocities travel once and the next step starts with a fresh force pass.
void NbodyMultiDevice::setIntegrationForSteps(bool replicated) {
    if (replicated && !statesAlike_ && n_) {
        shareOwnersVelocities();
        for (auto& sim : sims_)
            sim->invalidateAccelerations();
    }
    for (auto& sim : sims_) {
        sim->setMovesEveryBody(replicated);
        // Every device moves every body and runs the same passes: their slots stay alike.
        sim->setRenumbering(replicated || sims_.size() == 1);
    }
}

void NbodyMultiDevice::setTreeIntegration(NbodyTreeIntegration mode) {
    if (mode == NbodyTreeIntegration::Replicated && sims_.size() > 1) {
        std::vector<NbodyDeviceIdentity> ids;
        for (ComputeContext* cc : contexts_)
            ids.push_back(deviceIdentity(*cc));
        const NbodyTreeIntegrationChoice c = chooseTreeIntegration(mode, ids, true);
        if (!c.replicated)
            throw Error(
                "the tree's replicated integration needs identical devices, and these "
                "are not (" +
                c.why + "): use auto or owners");
    }
    integrationMode_ = mode;
}

NbodyTreeIntegrationChoice NbodyMultiDevice::treeIntegrationChoice() {
    return lastSteps_ ? integration_ : decideIntegration();
}

std::size_t NbodyMultiDevice::bodiesDifferingBetweenDevices() {
    if (sims_.size() < 2 || !n_) return 0;
    const std::vector<Body> first = sims_[0]->readBodies();
    std::vector<char> differs(n_, 0);
    for (std::size_t d = 1; d < sims_.size(); ++d) {
        const std::vector<Body> other = sims_[d]->readBodies();
        for (std::size_t i = 0; i < n_; ++i)
            if (std::memcmp(&first[i], &other[i], sizeof(Body)) != 0) differs[i] = 1;
    }
    return static_cast<std::size_t>(std::count(differs.begin(), differs.end(), 1));
}

void NbodyMultiDevice::setWeights(const std::vector<double>& weights) {
    if (weights.size() != sims_.size())
        throw Error(std::to_string(weights.size()) + " weights for " +
                    std::to_string(sims_.size()) + " devices");
    const std::vector<BodySlice> slices = planSlices(n_, weights);  // validates
    weights_ = weights;
    autoBalance_ = false;
    balancer_.reset();
    if (n_) applySlices(slices);
}

void NbodyMultiDevice::setAutoBalance(bool on) {
    autoBalance_ = on;
}

// Each slice of the slots from the device that owns it (the others hold stale copies), in the
// load order (every device's slots hold the same bodies: they renumber together or not at all).
template <class T>
std::vector<T> NbodyMultiDevice::fromOwners(std::vector<T> (NbodySimulation::*read)()) {
    std::vector<T> out(n_);
    for (std::size_t d = 0; n_ && d < sims_.size(); ++d) {
        if (!slices_[d].count) continue;
        const std::vector<T> all = ((*sims_[d]).*read)();
        const auto begin = static_cast<std::ptrdiff_t>(slices_[d].begin);
        std::copy_n(all.begin() + begin, slices_[d].count, out.begin() + begin);
    }
    return inLoadOrder(std::move(out), sims_[0]->readSlotIds());
}

std::vector<Body> NbodyMultiDevice::readBodies() {
    if (statesAlike_ && n_) return sims_[0]->readBodies();  // every device holds every body
    return fromOwners(&NbodySimulation::readSlotBodies);
}

std::vector<Float4> NbodyMultiDevice::readAccelerations() {
    if (n_ && sharedForces()) ensureSummedForces();
    return fromOwners(&NbodySimulation::readSlotAccelerations);
}

NbodyDiagnostics NbodyMultiDevice::diagnostics() {
    if (!n_) return {};
    NbodyDiagnosticSums sums;
    for (auto& sim : sims_)
        sums.add(sim->ownedDiagnosticSums());
    return energyReference_.finish(sums);
}

void NbodyMultiDevice::resetEnergyReference() {
    energyReference_.reset();
    diagnostics();
}

void NbodyMultiDevice::setParams(const NbodyParams& p) {
    const bool newSoftening = p.softening != sims_[0]->params().softening;
    for (auto& sim : sims_)
        sim->setParams(p);  // the first validates; the rest accept the same values
    if (newSoftening) energyReference_.reset();  // the potential energy depends on it
}

void NbodyMultiDevice::setIntegrator(NbodyIntegrator i) {
    for (auto& sim : sims_)
        sim->setIntegrator(i);
}

void NbodyMultiDevice::setPrecision(NbodyPrecision p) {
    for (auto& sim : sims_)
        sim->setPrecision(p);
    energyReference_.reset();
}

void NbodyMultiDevice::setKernelConfig(const NbodyKernelConfig& c) {
    for (auto& sim : sims_)
        sim->setKernelConfig(c);
}

NbodyMultiTimings NbodyMultiDevice::lastTimings() {
    NbodyMultiTimings t;
    t.steps = lastSteps_;
    t.bodies = static_cast<long long>(n_);
    t.rebalances = rebalances_;
    if (sims_.size() > 1 && sharedForces() && sims_[0]->sharedForcesAreSlices()) {
        t.integration = integration_.why;
        t.treeBuild = sims_[0]->treeDomainsSet() ? "split" : "whole";
    }
    if (!lastSteps_) return t;
    t.stepMs = lastWallMs_ / lastSteps_;
    for (std::size_t d = 0; d < sims_.size(); ++d) {
        NbodyDeviceTimings dt;
        dt.device = contexts_[d]->info().name;
        dt.begin = slices_[d].begin;
        dt.count = slices_[d].count;
        dt.share = n_ ? static_cast<double>(dt.count) / static_cast<double>(n_) : 0;
        dt.computeMs = sims_[d]->lastStepTimings().kernelMs / lastSteps_;
        double transfer = 0;
        clBoundary("cannot read the exchange timings", [&] {
            for (const cl::Event& ev : transferEvents_[d])
                transfer += eventMilliseconds(ev);
        });
        dt.exchangeMs = transfer / lastSteps_;
        dt.waitMs = (waitMs_[d] + hostSumMs_[d]) / lastSteps_;
        dt.phases = kernelPhases(sims_[d]->lastStepTimings());
        dt.phases.push_back({"transfers", dt.exchangeMs});
        if (hostSumMs_[d] > 0) dt.phases.push_back({"host sum", hostSumMs_[d] / lastSteps_});
        if (sims_.size() > 1) dt.phases.push_back({"host enqueue", hostEnqueueMs_[d] / lastSteps_});
        t.devices.push_back(dt);
    }
    return t;
}

NbodyStepTimeline NbodyMultiDevice::lastTimeline() {
    return clBoundary("cannot read the step's timeline", [&] {
        std::vector<NbodyDeviceEvents> devices;
        for (std::size_t d = 0; d < sims_.size(); ++d) {
            std::vector<NbodyLaneEvent> kernels, slices, build;
            for (const auto& [stage, ev] : sims_[d]->lastStepEvents())
                kernels.push_back({stage, ev, 0, sims_[d]->commandOf(ev)});
            for (const cl::Event& ev : transferEvents_[d])
                slices.push_back({"slice copy", ev});
            for (const TreeForce::Copy& c : sims_[d]->lastTreeCopies())
                build.push_back({c.name, c.event, c.bytes});
            devices.push_back({contexts_[d]->info().name,
                               contexts_[d]->queue(),
                               {{"kernels", std::move(kernels)},
                                {"slice copies", std::move(slices)},
                                {"split build copies", std::move(build)}},
                               hostSpans_[d]});
        }
        return stepTimeline(devices);
    });
}

}  // namespace clviz
