#include "compute/nbody/mpi/mpi_simulation.hpp"

#include <algorithm>
#include <chrono>
#include <climits>
#include <cstring>
#include <functional>
#include <iterator>

#include "common/elapsed.hpp"
#include "common/error.hpp"
#include "common/parallel_copy.hpp"
#include "compute/core/cl_boundary.hpp"
#include "compute/core/compute_context.hpp"
#include "compute/core/device_info.hpp"
#include "compute/core/profiling.hpp"
#include "compute/nbody/body_slots.hpp"
#include "compute/nbody/mpi/host_window.hpp"
#include "compute/nbody/multi/shared_forces.hpp"

namespace clviz {

const char* mpiExchangeName(MpiExchange e) {
    switch (e) {
        case MpiExchange::Auto:
            return "auto";
        case MpiExchange::Collectives:
            return "collectives";
        case MpiExchange::HostWindow:
            return "window";
    }
    return "?";
}

MpiExchange parseMpiExchange(const std::string& text) {
    for (MpiExchange e : {MpiExchange::Auto, MpiExchange::Collectives, MpiExchange::HostWindow})
        if (text == mpiExchangeName(e)) return e;
    throw Error("unknown MPI exchange \"" + text + "\" (auto, collectives or window)");
}

void NbodyMpiSimulation::setExchange(MpiExchange e) {
    if (e == MpiExchange::HostWindow && !HostWindow::possible(session_))
        throw Error("the window exchange needs every rank on one host (" +
                    std::to_string(session_.localSize()) + " of " +
                    std::to_string(session_.size()) + " ranks share " + session_.host() +
                    "): use the collectives");
    exchange_ = e;
}

MpiExchange NbodyMpiSimulation::exchange() const {
    if (exchange_ != MpiExchange::Auto) return exchange_;
    return HostWindow::possible(session_) ? MpiExchange::HostWindow : MpiExchange::Collectives;
}

void NbodyMpiSimulation::timedCopy(void* dst, const void* src, std::size_t bytes) {
    const auto start = std::chrono::steady_clock::now();
    parallelCopy(dst, src, bytes);
    hostCopyMs_ += msSince(start);
}

// Collective: every rank asks for the same size at the same call.
HostWindow& NbodyMpiSimulation::ensureWindow(std::unique_ptr<HostWindow>& window,
                                             std::size_t bytes) {
    if (!window || window->bytes() != bytes) {
        window.reset();  // collective too: every rank frees it at the same call
        window = std::make_unique<HostWindow>(session_, mpi_, bytes);
    }
    return *window;
}

NbodyMpiSimulation::NbodyMpiSimulation(ComputeContext& cc, const MpiSession& session,
                                       DeadlineCollectives& collectives, NbodyEnvironment env)
    : cc_(cc), session_(session), mpi_(collectives), local_(cc, std::move(env)) {
    local_.setRenumbering(session_.size() == 1);  // several ranks: only all together (step)
}

NbodyMpiSimulation::~NbodyMpiSimulation() {
    positionWindow_.reset();
    accWindow_.reset();
    try {
        if (host_) cc_.queue().enqueueUnmapMemObject(staging_, host_);
        if (accHost_) cc_.queue().enqueueUnmapMemObject(accStaging_, accHost_);
    } catch (const cl::Error&) {
        // Shutdown: the context goes away with it.
    }
    cc_.finishQuietly();
    if (bodyType_ != MPI_DATATYPE_NULL) MPI_Type_free(&bodyType_);
    if (accType_ != MPI_DATATYPE_NULL) MPI_Type_free(&accType_);
}

std::vector<int> NbodyMpiSimulation::counts() const {
    std::vector<int> c;
    for (const BodySlice& s : slices_)
        c.push_back(static_cast<int>(s.count));
    return c;
}

std::vector<int> NbodyMpiSimulation::displacements() const {
    std::vector<int> d;
    for (const BodySlice& s : slices_)
        d.push_back(static_cast<int>(s.begin));
    return d;
}

void NbodyMpiSimulation::load(const std::vector<Body>& bodiesOnRank0) {
    unsigned long long n = session_.rank() == 0 ? bodiesOnRank0.size() : 0;
    mpi_.broadcast(&n, 1, MPI_UNSIGNED_LONG_LONG, "broadcast of the body count");
    if (n == 0 || n > kMaxBodies)
        throw Error("cannot load " + std::to_string(n) + " bodies (need 1 .. " +
                    std::to_string(kMaxBodies) + ")");
    std::vector<Body> bodies(n);
    if (session_.rank() == 0) bodies = bodiesOnRank0;
    static_assert(sizeof(Body) % sizeof(float) == 0);
    const std::size_t floats = n * (sizeof(Body) / sizeof(float));
    for (std::size_t done = 0; done < floats;) {  // MPI counts are int: pieces of 2^30 floats
        const int part = static_cast<int>(std::min<std::size_t>(floats - done, 1u << 30));
        mpi_.broadcast(reinterpret_cast<float*>(bodies.data()) + done, part, MPI_FLOAT,
                       "broadcast of the initial bodies");
        done += static_cast<std::size_t>(part);
    }
    local_.load(bodies);
    n_ = n;
    time_ = 0;
    steps_ = 0;
    lastSteps_ = 0;
    rebalances_ = 0;
    balancer_.reset();
    energyReference_.reset();
    slices_ = planSlices(n_, std::vector<double>(static_cast<std::size_t>(session_.size()), 1.0));
    const BodySlice& mine = slices_[static_cast<std::size_t>(session_.rank())];
    local_.setOwnedRange(mine.begin, mine.count);
    statesAlike_ = true;  // every rank got every body
    integration_ = {};
}

void NbodyMpiSimulation::setKernelConfig(const NbodyKernelConfig& c) {
    local_.setKernelConfig(c);
}

bool NbodyMpiSimulation::sharedForces() const {
    return session_.size() > 1 && runsOnOneDeviceInFloat(local_.kernelConfig().variant);
}

// The blocks' meetings are shared out by index: every rank must cut the same blocks. Every rank
// sees the same gathered figures, so all of them throw or none does.
void NbodyMpiSimulation::checkSameBlocks() {
    const NbodyKernelConfig c = local_.effectiveKernelConfig();
    const int mine = c.workGroupSize * c.bodiesPerItem;
    std::vector<int> all(static_cast<std::size_t>(session_.size()));
    mpi_.allgather(&mine, all.data(), 1, MPI_INT, "exchange of the pairs blocks");
    if (std::adjacent_find(all.begin(), all.end(), std::not_equal_to<>()) != all.end())
        throw Error(
            "the pairs variant over several ranks needs the same blocks on every rank "
            "(work-group size x bodies per item), and these ranks' devices resolve "
            "different ones: set nbody.wg and nbody.bpi");
}

// A force pass of its own (after load, re-slicing, a new force method, or Taylor's update): every
// rank's accelerations go stale together (all ranks make the same calls), so all of them run it.
void NbodyMpiSimulation::ensureSummedForces() {
    if (local_.accelerationsCurrent()) return;
    local_.computeSharedForces();
    sumSharedForces();
}

void NbodyMpiSimulation::sumSharedForces() {
    if (local_.sharedForcesAreSlices())
        windowed() ? exchangeForceSlicesInWindow() : exchangeForceSlices();
    else
        windowed() ? sumForcePartsInWindow() : sumForceParts();
}

// Pinned host memory of N accelerations (16 bytes each).
void NbodyMpiSimulation::ensureAccStaging() {
    const std::size_t bytes = n_ * sizeof(cl_float4);
    auto& q = cc_.queue();
    if (accStagingBytes_ == bytes) return;
    if (accHost_) q.enqueueUnmapMemObject(accStaging_, accHost_);
    accHost_ = nullptr;
    accStagingBytes_ = 0;
    accStaging_ = cl::Buffer(cc_.context(), CL_MEM_ALLOC_HOST_PTR | CL_MEM_READ_WRITE, bytes);
    accHost_ = static_cast<char*>(
        q.enqueueMapBuffer(accStaging_, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0, bytes));
    accStagingBytes_ = bytes;
}

// The tree: this rank's Morton domain, its slice of the sorted accelerations, out to the host at
// its place (slice x 16 bytes), MPI_Iallgatherv in place (every rank sends its slice and receives
// the others': 16 x N (P - 1) / P bytes), the others' slices back to the device, which returns
// them to the body order and kicks. Every rank sorts the same way, so no index travels; nothing is
// added, so the accelerations are one device's walk exactly.
void NbodyMpiSimulation::exchangeForceSlices() {
    return clBoundary(
        [&] {
            return "the MPI exchange of the tree accelerations failed on rank " +
                   std::to_string(session_.rank());
        },
        [&] {
            constexpr std::size_t kBytes = sizeof(cl_float4);
            auto& q = cc_.queue();
            ensureAccStaging();
            if (accType_ == MPI_DATATYPE_NULL) {
                MPI_Type_contiguous(static_cast<int>(kBytes), MPI_BYTE, &accType_);
                MPI_Type_commit(&accType_);
            }
            const BodySlice& mine = slices_[static_cast<std::size_t>(session_.rank())];
            const cl::Buffer& sorted = local_.sharedForceSlices();
            if (mine.count) {
                cl::Event ev;
                q.enqueueReadBuffer(sorted, CL_TRUE, mine.begin * kBytes, mine.count * kBytes,
                                    accHost_ + mine.begin * kBytes, nullptr, &ev);
                transfers_.push_back(ev);
            }
            mpi_.allgatherv(
                accHost_, counts(), displacements(), accType_,
                "exchange of the tree accelerations of step " + std::to_string(steps_ + 1));
            gatherMs_ += mpi_.lastMs();
            auto upload = [&](std::size_t from, std::size_t to) {
                if (to <= from) return;
                cl::Event ev;
                q.enqueueWriteBuffer(sorted, CL_FALSE, from * kBytes, (to - from) * kBytes,
                                     accHost_ + from * kBytes, nullptr, &ev);
                transfers_.push_back(ev);
            };
            upload(0, mine.begin);
            upload(mine.end(), n_);
            local_.finishSharedForces();
        });
}

// Pairs: this rank's part of every body's acceleration out to the host (N x 16 bytes), summed
// over the ranks by MPI_Ireduce_scatter (each rank receives its slice's sums), the sums back to
// the device, then the closing half-kick. The upload is done before the next sum's read (in-order
// queue).
void NbodyMpiSimulation::sumForceParts() {
    return clBoundary(
        [&] {
            return "the MPI sum of the accelerations failed on rank " +
                   std::to_string(session_.rank());
        },
        [&] {
            const std::size_t bytes = n_ * sizeof(cl_float4);
            auto& q = cc_.queue();
            ensureAccStaging();
            cl::Event read;
            q.enqueueReadBuffer(local_.workingAccelerations(), CL_TRUE, 0, bytes, accHost_, nullptr,
                                &read);
            transfers_.push_back(read);
            const BodySlice& mine = slices_[static_cast<std::size_t>(session_.rank())];
            accMine_.resize(4 * std::max<std::size_t>(mine.count, 1));
            std::vector<int> c = counts();
            for (int& k : c)
                k *= 4;
            mpi_.reduceScatter(accHost_, accMine_.data(), c, MPI_FLOAT, MPI_SUM,
                               "sum of the accelerations of step " + std::to_string(steps_ + 1));
            gatherMs_ += mpi_.lastMs();
            if (mine.count) {
                cl::Event ev;
                q.enqueueWriteBuffer(local_.workingAccelerations(), CL_FALSE,
                                     mine.begin * sizeof(cl_float4), mine.count * sizeof(cl_float4),
                                     accMine_.data(), nullptr, &ev);
                transfers_.push_back(ev);
            }
            local_.finishSharedForces();
        });
}

void NbodyMpiSimulation::setPrecision(NbodyPrecision p) {
    local_.setPrecision(p);
    energyReference_.reset();
}

void NbodyMpiSimulation::ensureStaging() {
    return clBoundary("cannot allocate pinned host memory for the MPI position exchange", [&] {
        const std::size_t bodyBytes = local_.workingBodyBytes();
        if (bodyTypeBytes_ != bodyBytes) {
            if (bodyType_ != MPI_DATATYPE_NULL) MPI_Type_free(&bodyType_);
            MPI_Type_contiguous(static_cast<int>(bodyBytes), MPI_BYTE, &bodyType_);
            MPI_Type_commit(&bodyType_);
            bodyTypeBytes_ = bodyBytes;
        }
        const std::size_t bytes = n_ * bodyBytes;
        if (stagingBytes_ == bytes) return;
        if (host_) cc_.queue().enqueueUnmapMemObject(staging_, host_);
        host_ = nullptr;
        staging_ = cl::Buffer(cc_.context(), CL_MEM_ALLOC_HOST_PTR | CL_MEM_READ_WRITE, bytes);
        host_ = static_cast<char*>(
            cc_.queue().enqueueMapBuffer(staging_, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0, bytes));
        stagingBytes_ = bytes;
    });
}

void NbodyMpiSimulation::step(int count) {
    if (!n_ || count <= 0) return;
    if (autoBalance_ && lastSteps_ > 0) rebalanceIfWorthIt();
    integration_ = decideIntegration();
    if (integration_.replicated && !statesAlike_) {
        shareOwnersVelocities();  // the others' velocities were stale under the owners
        local_.invalidateAccelerations();
    }
    local_.setMovesEveryBody(integration_.replicated);
    // Every rank moves every body and runs the same passes: their slots stay alike.
    local_.setRenumbering(integration_.replicated || session_.size() == 1);
    ensureStaging();
    local_.beginSteps(count);
    transfers_.clear();
    gatherMs_ = 0;
    hostCopyMs_ = 0;
    hostSumMs_ = 0;
    const bool shared = sharedForces();
    if (shared && local_.kernelConfig().variant == NbodyVariant::Pairs) checkSameBlocks();
    const auto start = std::chrono::steady_clock::now();
    for (int s = 0; s < count; ++s) {
        if (shared) ensureSummedForces();
        local_.advance();
        // Replicated: every rank drifted every body the same way, nothing to send.
        if (session_.size() > 1 && !integration_.replicated)
            windowed() ? exchangePositionsInWindow() : exchangePositions();
        local_.complete();
        // Leapfrog's force pass ran in complete() (decided alike on every rank: a rank that owns
        // every body computed it whole, and its sum with the others' zeros is unchanged).
        if (shared && local_.integrator() == NbodyIntegrator::Leapfrog) sumSharedForces();
        time_ += local_.params().dt;
        ++steps_;
    }
    local_.endSteps();
    statesAlike_ = integration_.replicated || session_.size() == 1;
    cc_.queue().finish();
    wallMs_ = msSince(start);
    lastSteps_ = count;
}

// This rank's slice out to the host, everybody's slices in place by MPI, the others' slices back
// to the device. The read must finish before MPI sends it; the uploads are left to the in-order
// queue (complete() runs after them) and are done before the next step's read, so the host
// buffer is never overwritten while a transfer still uses it.
void NbodyMpiSimulation::exchangePositions() {
    return clBoundary(
        [&] {
            return "the MPI position exchange failed on rank " + std::to_string(session_.rank());
        },
        [&] {
            const std::size_t bytes = local_.workingBodyBytes();
            const BodySlice& mine = slices_[static_cast<std::size_t>(session_.rank())];
            auto& q = cc_.queue();
            if (mine.count) {
                cl::Event ev;
                q.enqueueReadBuffer(local_.workingPositions(), CL_TRUE, mine.begin * bytes,
                                    mine.count * bytes, host_ + mine.begin * bytes, nullptr, &ev);
                transfers_.push_back(ev);
            }
            mpi_.allgatherv(host_, counts(), displacements(), bodyType_,
                            "position exchange of step " + std::to_string(steps_ + 1));
            gatherMs_ += mpi_.lastMs();
            auto upload = [&](std::size_t from, std::size_t to) {
                if (to <= from) return;
                cl::Event ev;
                q.enqueueWriteBuffer(local_.workingPositions(), CL_FALSE, from * bytes,
                                     (to - from) * bytes, host_ + from * bytes, nullptr, &ev);
                transfers_.push_back(ev);
            };
            upload(0, mine.begin);
            upload(mine.end(), n_);
        });
}

namespace {

// The other ranks' bodies [from, to) (byte offsets) from the window to the device through this
// rank's pinned memory at the same offsets, chunk by chunk: threads copy a chunk while the device
// uploads the one before (a device reads pageable memory, such as the window, at a fraction of
// the speed it reads pinned memory).
void uploadThroughPinned(cl::CommandQueue& q, const cl::Buffer& buffer, const char* window,
                         char* pinned, std::size_t from, std::size_t to,
                         std::vector<cl::Event>& transfers, double& copyMs) {
    constexpr std::size_t kChunk = std::size_t{8} << 20;
    for (std::size_t at = from; at < to; at += kChunk) {
        const std::size_t bytes = std::min(kChunk, to - at);
        const auto copyStart = std::chrono::steady_clock::now();
        parallelCopy(pinned + at, window + at, bytes);
        copyMs += msSince(copyStart);
        cl::Event ev;
        q.enqueueWriteBuffer(buffer, CL_FALSE, at, bytes, pinned + at, nullptr, &ev);
        q.flush();
        transfers.push_back(ev);
    }
}

}  // namespace

// The window: this rank's slice into this round's half of the shared positions (through its
// pinned memory), a barrier, then the others' slices from it to the device (through the pinned
// memory again). Each rank is done reading the half when this returns (the copies out of it are
// the host's), so before the next round's barrier, after which the half is written again.
void NbodyMpiSimulation::exchangePositionsInWindow() {
    return clBoundary(
        [&] {
            return "the position exchange through shared host memory failed on rank " +
                   std::to_string(session_.rank());
        },
        [&] {
            const std::size_t bytes = local_.workingBodyBytes();
            HostWindow& window = ensureWindow(positionWindow_, 2 * n_ * bytes);
            char* half = window.data() + (positionRounds_++ & 1) * n_ * bytes;
            const BodySlice& mine = slices_[static_cast<std::size_t>(session_.rank())];
            auto& q = cc_.queue();
            // The last round's uploads read host_: done before it is written again.
            q.finish();
            if (mine.count) {
                cl::Event ev;
                q.enqueueReadBuffer(local_.workingPositions(), CL_TRUE, mine.begin * bytes,
                                    mine.count * bytes, host_ + mine.begin * bytes, nullptr, &ev);
                transfers_.push_back(ev);
                timedCopy(half + mine.begin * bytes, host_ + mine.begin * bytes,
                          mine.count * bytes);
            }
            window.synchronize("position exchange of step " + std::to_string(steps_ + 1));
            gatherMs_ += window.lastMs();
            const cl::Buffer& positions = local_.workingPositions();
            uploadThroughPinned(q, positions, half, host_, 0, mine.begin * bytes, transfers_,
                                hostCopyMs_);
            uploadThroughPinned(q, positions, half, host_, mine.end() * bytes, n_ * bytes,
                                transfers_, hostCopyMs_);
        });
}

// Pairs through the window: this rank's part of every acceleration into its place of this
// round's half (ranks x N x 16 bytes), a barrier, then this rank adds every rank's part of its own
// slice (rank order 0, 1, ..., as one process adds its devices') and uploads the sums.
void NbodyMpiSimulation::sumForcePartsInWindow() {
    return clBoundary(
        [&] {
            return "the sum of the accelerations through shared host memory failed on rank " +
                   std::to_string(session_.rank());
        },
        [&] {
            constexpr std::size_t kBytes = sizeof(cl_float4);
            const std::size_t ranks = static_cast<std::size_t>(session_.size());
            const std::size_t me = static_cast<std::size_t>(session_.rank());
            const std::size_t partBytes = n_ * kBytes;
            HostWindow& window = ensureWindow(accWindow_, 2 * ranks * partBytes);
            char* half = window.data() + (accRounds_++ & 1) * ranks * partBytes;
            std::vector<float*> parts;
            for (std::size_t r = 0; r < ranks; ++r)
                parts.push_back(reinterpret_cast<float*>(half + r * partBytes));
            auto& q = cc_.queue();
            ensureAccStaging();
            q.finish();  // the last sum's upload read accHost_
            cl::Event read;
            q.enqueueReadBuffer(local_.workingAccelerations(), CL_TRUE, 0, partBytes, accHost_,
                                nullptr, &read);
            transfers_.push_back(read);
            timedCopy(parts[me], accHost_, partBytes);
            window.synchronize("sum of the accelerations of step " + std::to_string(steps_ + 1));
            gatherMs_ += window.lastMs();
            const BodySlice& mine = slices_[me];
            // Only this rank's slice: the sums land in its own part, which no other rank reads
            // there (each reads the parts of its own slice).
            std::vector<BodySlice> onlyMine(ranks, BodySlice{});
            onlyMine[me] = mine;
            const auto sumStart = std::chrono::steady_clock::now();
            sumSharedAccelerations(parts, onlyMine);
            hostSumMs_ += msSince(sumStart);
            uploadThroughPinned(q, local_.workingAccelerations(),
                                reinterpret_cast<const char*>(parts[me]), accHost_,
                                mine.begin * kBytes, mine.end() * kBytes, transfers_, hostCopyMs_);
            local_.finishSharedForces();
        });
}

// The tree through the window: this rank's Morton domain of the sorted accelerations into this
// round's half (N x 16 bytes), a barrier, the other domains straight to the device. Nothing is
// added: one device's walk exactly, as with the all-gather.
void NbodyMpiSimulation::exchangeForceSlicesInWindow() {
    return clBoundary(
        [&] {
            return "the exchange of the tree accelerations through shared host memory failed on "
                   "rank " +
                   std::to_string(session_.rank());
        },
        [&] {
            constexpr std::size_t kBytes = sizeof(cl_float4);
            HostWindow& window = ensureWindow(accWindow_, 2 * n_ * kBytes);
            char* half = window.data() + (accRounds_++ & 1) * n_ * kBytes;
            const BodySlice& mine = slices_[static_cast<std::size_t>(session_.rank())];
            const cl::Buffer& sorted = local_.sharedForceSlices();
            auto& q = cc_.queue();
            ensureAccStaging();
            q.finish();  // the last round's uploads read accHost_
            if (mine.count) {
                cl::Event ev;
                q.enqueueReadBuffer(sorted, CL_TRUE, mine.begin * kBytes, mine.count * kBytes,
                                    accHost_ + mine.begin * kBytes, nullptr, &ev);
                transfers_.push_back(ev);
                timedCopy(half + mine.begin * kBytes, accHost_ + mine.begin * kBytes,
                          mine.count * kBytes);
            }
            window.synchronize("exchange of the tree accelerations of step " +
                               std::to_string(steps_ + 1));
            gatherMs_ += window.lastMs();
            uploadThroughPinned(q, sorted, half, accHost_, 0, mine.begin * kBytes, transfers_,
                                hostCopyMs_);
            uploadThroughPinned(q, sorted, half, accHost_, mine.end() * kBytes, n_ * kBytes,
                                transfers_, hostCopyMs_);
            local_.finishSharedForces();
        });
}

void NbodyMpiSimulation::setWeights(const std::vector<double>& weights) {
    if (weights.size() != static_cast<std::size_t>(session_.size()))
        throw Error(std::to_string(weights.size()) + " weights for " +
                    std::to_string(session_.size()) + " ranks");
    const std::vector<BodySlice> slices = planSlices(n_, weights);  // validates
    autoBalance_ = false;
    balancer_.reset();
    if (n_) applySlices(slices);
}

void NbodyMpiSimulation::rebalanceIfWorthIt() {
    const double mine = balancedForceMs(local_.lastStepTimings());
    std::vector<double> all(static_cast<std::size_t>(session_.size()));
    mpi_.allgather(&mine, all.data(), 1, MPI_DOUBLE,
                   "exchange of the force times before step " + std::to_string(steps_ + 1));
    if (auto slices = balancer_.update(slices_, all, lastSteps_)) {
        applySlices(*slices);
        ++rebalances_;
    }
}

// New owners need the velocities of the bodies they take over: every rank all-gathers them
// (unless every rank holds every velocity: after load or replicated steps; statesAlike_ is the
// same on every rank) and recomputes the accelerations of its new slice in its next step.
void NbodyMpiSimulation::applySlices(const std::vector<BodySlice>& slices) {
    if (!statesAlike_) shareOwnersVelocities();
    slices_ = slices;
    const BodySlice& next = slices_[static_cast<std::size_t>(session_.rank())];
    local_.setOwnedRange(next.begin, next.count);
    local_.invalidateAccelerations();  // on every rank: the split forces need them all
}

// Each owner's velocities to every rank. Between steps every rank holds every position, so
// afterwards every rank holds the whole state.
void NbodyMpiSimulation::shareOwnersVelocities() {
    return clBoundary("cannot move the N-body velocities between ranks", [&] {
        ensureStaging();
        const std::size_t bytes = local_.workingBodyBytes();
        const BodySlice& mine = slices_[static_cast<std::size_t>(session_.rank())];
        std::vector<char> vel(n_ * bytes);
        auto& q = cc_.queue();
        if (mine.count)
            q.enqueueReadBuffer(local_.workingVelocities(), CL_TRUE, mine.begin * bytes,
                                mine.count * bytes, vel.data() + mine.begin * bytes);
        mpi_.allgatherv(vel.data(), counts(), displacements(), bodyType_,
                        "velocity exchange after re-slicing");
        q.enqueueWriteBuffer(local_.workingVelocities(), CL_TRUE, 0, vel.size(), vel.data());
        local_.endSteps();  // fp64: the float copy (readBodies, the viewer) follows
        statesAlike_ = true;
    });
}

// Every rank's device identity, all-gathered as hashes of its fields (the same choice on every
// rank: the same inputs to the same pure function).
NbodyTreeIntegrationChoice NbodyMpiSimulation::decideIntegration() {
    if (session_.size() < 2 || !sharedForces() || !local_.sharedForcesAreSlices()) return {};
    if (integrationMode_ == NbodyTreeIntegration::Owners) return {false, "owners (asked)"};
    const NbodyDeviceIdentity id = deviceIdentity(cc_);
    const std::string* fields[] = {&id.name, &id.vendor, &id.version, &id.driverVersion,
                                   &id.programs};
    constexpr int kFields = static_cast<int>(std::size(fields));
    unsigned long long mine[kFields];
    for (int f = 0; f < kFields; ++f)
        mine[f] = std::hash<std::string>{}(*fields[f]);
    std::vector<unsigned long long> all(static_cast<std::size_t>(session_.size()) * kFields);
    mpi_.allgather(mine, all.data(), kFields, MPI_UNSIGNED_LONG_LONG,
                   "exchange of the device identities before step " + std::to_string(steps_ + 1));
    std::vector<NbodyDeviceIdentity> ids(static_cast<std::size_t>(session_.size()));
    for (std::size_t r = 0; r < ids.size(); ++r) {
        std::string* out[] = {&ids[r].name, &ids[r].vendor, &ids[r].version, &ids[r].driverVersion,
                              &ids[r].programs};
        for (int f = 0; f < kFields; ++f)
            *out[f] = std::to_string(all[r * kFields + static_cast<std::size_t>(f)]);
    }
    NbodyTreeIntegrationChoice c = chooseTreeIntegration(integrationMode_, ids, true);
    if (c.replicated)
        c.why = "replicated: " + std::to_string(session_.size()) +
                " ranks with identical devices (name, vendor, driver, programs) each move every "
                "body";
    else
        c.why += " (hashes of each rank's field)";
    return c;
}

std::vector<Body> NbodyMpiSimulation::readBodies() {
    if (!n_) return {};
    const BodySlice& mine = slices_[static_cast<std::size_t>(session_.rank())];
    const std::vector<Body> all = local_.readSlotBodies();
    std::vector<Body> out(session_.rank() == 0 ? n_ : 0);
    constexpr int kFloats = sizeof(Body) / sizeof(float);
    std::vector<int> c = counts(), d = displacements();
    for (std::size_t r = 0; r < c.size(); ++r)
        c[r] *= kFloats, d[r] *= kFloats;
    mpi_.gatherv(all.data() + mine.begin, static_cast<int>(mine.count) * kFloats, out.data(), c, d,
                 MPI_FLOAT, "gather of the bodies to rank 0");
    // Every rank's slots hold the same bodies (they renumber together or not at all).
    return session_.rank() == 0 ? inLoadOrder(std::move(out), local_.readSlotIds()) : out;
}

std::vector<Float4> NbodyMpiSimulation::gatherAccelerations() {
    if (!n_) return {};
    if (sharedForces()) ensureSummedForces();  // collective: every rank takes the same path
    const BodySlice& mine = slices_[static_cast<std::size_t>(session_.rank())];
    const std::vector<Float4> all = local_.readSlotAccelerations();
    std::vector<Float4> out(session_.rank() == 0 ? n_ : 0);
    std::vector<int> c = counts(), d = displacements();
    for (std::size_t r = 0; r < c.size(); ++r)
        c[r] *= 4, d[r] *= 4;
    mpi_.gatherv(all.data() + mine.begin, static_cast<int>(mine.count) * 4, out.data(), c, d,
                 MPI_FLOAT, "gather of the accelerations to rank 0");
    return session_.rank() == 0 ? inLoadOrder(std::move(out), local_.readSlotIds()) : out;
}

NbodyDiagnostics NbodyMpiSimulation::diagnostics() {
    if (!n_) return {};
    const NbodyDiagnosticSums mine = local_.ownedDiagnosticSums();
    double sums[6] = {mine.kinetic,     mine.potential,   mine.momentum[0],
                      mine.momentum[1], mine.momentum[2], double(mine.nonFiniteBodies)};
    mpi_.allreduce(sums, 6, MPI_DOUBLE, MPI_SUM, "sum of the diagnostics");
    long long first = mine.firstNonFinite < 0 ? LLONG_MAX : mine.firstNonFinite;
    mpi_.allreduce(&first, 1, MPI_LONG_LONG, MPI_MIN, "first non-finite body");
    double ms = mine.ms;
    mpi_.allreduce(&ms, 1, MPI_DOUBLE, MPI_MAX, "diagnostics time");
    NbodyDiagnosticSums all;
    all.kinetic = sums[0];
    all.potential = sums[1];
    for (int c = 0; c < 3; ++c)
        all.momentum[c] = sums[2 + c];
    all.nonFiniteBodies = static_cast<long long>(sums[5]);
    all.firstNonFinite = first == LLONG_MAX ? -1 : first;
    all.ms = ms;
    return energyReference_.finish(all);
}

NbodyMultiTimings NbodyMpiSimulation::lastTimings() {
    NbodyMultiTimings t;
    t.steps = lastSteps_;
    t.bodies = static_cast<long long>(n_);
    t.rebalances = rebalances_;
    t.integration = integration_.why;
    const std::size_t ranks = static_cast<std::size_t>(session_.size());
    // Per rank: wall ms, compute ms, transfer ms, all-gather ms (all per step), then its name.
    // Then the kernel phases (tree build, tree walk, force, integrate; 0 where none ran).
    static const char* const kKernelPhases[] = {"tree build", "tree walk", "force", "integrate"};
    constexpr std::size_t kPhases = std::size(kKernelPhases);
    struct Figures {
        double wall, compute, transfer, gather, hostCopy, hostSum;
        double phases[kPhases];
        char name[96];
    } mine{};
    if (lastSteps_ > 0) {
        const double steps = lastSteps_;
        double transfer = 0;
        clBoundary("cannot read the exchange timings", [&] {
            for (const cl::Event& ev : transfers_)
                transfer += eventMilliseconds(ev);
        });
        mine.wall = wallMs_ / steps;
        mine.compute = local_.lastStepTimings().kernelMs / steps;
        mine.transfer = transfer / steps;
        mine.gather = gatherMs_ / steps;
        mine.hostCopy = hostCopyMs_ / steps;
        mine.hostSum = hostSumMs_ / steps;
        for (const auto& [phase, ms] : kernelPhases(local_.lastStepTimings()))
            for (std::size_t k = 0; k < kPhases; ++k)
                if (phase == kKernelPhases[k]) mine.phases[k] += ms;
    }
    const std::string name = "rank " + std::to_string(session_.rank()) + " (" + session_.host() +
                             "): " + cc_.info().name;
    std::strncpy(mine.name, name.c_str(), sizeof mine.name - 1);
    std::vector<Figures> all(ranks);
    mpi_.allgather(&mine, all.data(), sizeof(Figures), MPI_BYTE, "exchange of the timings");
    if (!lastSteps_) return t;
    double fastestGather = all[0].gather;
    for (const Figures& f : all) {
        t.stepMs = std::max(t.stepMs, f.wall);
        fastestGather = std::min(fastestGather, f.gather);
    }
    for (std::size_t r = 0; r < ranks; ++r) {
        NbodyDeviceTimings d;
        d.device = all[r].name;
        d.begin = slices_[r].begin;
        d.count = slices_[r].count;
        d.share = static_cast<double>(d.count) / static_cast<double>(n_);
        d.computeMs = all[r].compute;
        d.exchangeMs = all[r].transfer + fastestGather;
        d.waitMs = all[r].gather - fastestGather;
        for (std::size_t k = 0; k < kPhases; ++k)
            if (all[r].phases[k] > 0) d.phases.push_back({kKernelPhases[k], all[r].phases[k]});
        d.phases.push_back({"transfers", all[r].transfer});
        d.phases.push_back({"mpi", all[r].gather});
        if (all[r].hostCopy > 0) d.phases.push_back({"host copy", all[r].hostCopy});
        if (all[r].hostSum > 0) d.phases.push_back({"host sum", all[r].hostSum});
        t.devices.push_back(d);
    }
    return t;
}

}  // namespace clviz
