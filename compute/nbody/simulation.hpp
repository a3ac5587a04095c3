#pragma once
// The N-body simulation on an OpenCL device: direct-sum softened gravity with six interchangeable
// force kernels, two integrators, optional fp64, on-device diagnostics and a work-group auto-tune.
// GL-free: the viewer copies positions() each frame; the benchmark calls step() headless.
//
// Threading: one NbodySimulation belongs to one thread. Everything is enqueued on the
// ComputeContext's in-order queue, so commands the caller enqueues on that queue after step()
// (e.g. copying positions() into a GL buffer) see the new state without extra synchronization.
#include <cstddef>
#include <cstdint>
#include <functional>
#include <initializer_list>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "compute/core/cl.hpp"
#include "compute/nbody/body.hpp"
#include "compute/nbody/diagnostics.hpp"
#include "compute/nbody/pairs/pair_force.hpp"
#include "compute/nbody/system.hpp"
#include "compute/nbody/tree/tree_force.hpp"
#include "compute/nbody/variants.hpp"

namespace clviz {

class ComputeContext;
class NbodyAutotuneStore;

// What a simulation takes from the program around it: where auto-tune results are remembered and
// the debug switches. The app and the benchmark read them once from the environment; tests use
// the default (results remembered by this simulation alone, in memory; no switches).
struct NbodyEnvironment {
    std::shared_ptr<NbodyAutotuneStore> autotune;  // null: a private in-memory store
    std::string dumpDir;  // CLVIZ_NBODY_DUMP: write each force build's options, log and binary here
    bool trustCompiledWorkGroupSize = false;  // CLVIZ_NBODY_TRUST_REQD=1: launch what WG says even
                                              // when CL_KERNEL_WORK_GROUP_SIZE is smaller
    // The variables above, and a store in the user's cache directory
    // ($XDG_CACHE_HOME/clviz/nbody-autotune.txt, else ~/.cache/clviz/...).
    static NbodyEnvironment fromProcessEnvironment();
};

// Physical parameters. Changing them never resets the state.
struct NbodyParams {
    float dt = 0.01f;
    float softening = 0.05f;  // epsilon; 0 is allowed (a body never pulls on itself)
    float damping = 1.0f;     // velocities are multiplied by this once per step; 1 = none
    float theta = 0.5f;       // tree variant: opening angle in [0, 2]; 0 = the exact direct sum
    // Tree variant: far-field angle (TreeForceOptions::thetaFar) in [0, 0.95]; 0 = off.
    float thetaFar = kTreeDefaultThetaFar;
};

// Device time of the kernels enqueued by the last step() call, from CL profiling events: the time
// the device was busy with them (commands of its queues that overlap count once).
struct NbodyKernelTime {
    std::string kernel;  // "force", "kick-drift", "update", "to-float"; the tree variant's stages:
                         // "tree-box", "tree-keys", "tree-sort", "tree-build", "tree-moments",
                         // "tree-walk", "tree-kick" (leapfrog's closing half-kick),
                         // "tree-scatter" (a split's accelerations back to the body order)
    double ms = 0;       // busy time over the call's steps
    int launches = 0;
};
struct NbodyStepTimings {
    int steps = 0;
    double kernelMs = 0;  // busy time of all kernels of the call
    double forceMs = 0;   // the force kernel alone (tree: all its stages)
    std::vector<NbodyKernelTime> kernels;
    long long bodies = 0;
    // What the force computed, counted as it was done (issue 27: the tree and pairs reported
    // N^2 * 20 flops, above the device's peak). All-pairs: N^2 interactions; pairs: N(N-1), two
    // from each of the N(N-1)/2 pair evaluations; tree: the summed interaction-list lengths.
    double interactionsPerStep = 0;
    double flopsPerInteraction = 20;  // GPU Gems 3, ch. 31; pairs: 26 per pair, 13 per interaction
    bool fp64 = false;                // the flops are double-precision flops
    bool allPairs = true;             // interactionsPerStep is N^2 (no equivalent rate needed)
    bool listEntries = false;         // the tree: interactionsPerStep counts list entries
    double interactionsPerSecond() const;  // interactionsPerStep * steps / kernelMs: as computed
    // The rate's unit as shown: "list interactions/s" for the tree, "interactions/s" otherwise.
    const char* interactionsUnit() const {
        return listEntries ? "list interactions/s" : "interactions/s";
    }
    double gflops() const;  // interactionsPerSecond * flopsPerInteraction
    // N^2 * steps / kernelMs: the all-pairs rate that would take as long. Only ever shown
    // labelled "all-pairs-equivalent", never as FLOP/s.
    double equivalentInteractionsPerSecond() const;
};

// The force's interactions and flops per step for `variant` at `n` bodies (tree: `treeListPerBody`
// summed interaction-list entries per body); fills the counting fields of `t`.
void countNbodyWork(NbodyStepTimings& t, NbodyVariant variant, bool fp64, double treeListPerBody);

struct NbodyAutotuneResult {
    NbodyKernelConfig best;
    double bestMs = 0;  // one force pass
    int candidates = 0;
    std::string log;  // one line per candidate: config and ms (or why it was skipped)
};

class NbodySimulation : public NbodySystem {
  public:
    explicit NbodySimulation(ComputeContext& cc, NbodyEnvironment env = {});
    ~NbodySimulation();
    NbodySimulation(const NbodySimulation&) = delete;
    NbodySimulation& operator=(const NbodySimulation&) = delete;

    // Replaces the whole state (any N in 1 .. kMaxBodies; throws clviz::Error otherwise, or when
    // the device lacks memory). Resets simulated time and the energy reference.
    void load(const std::vector<Body>& bodies) override;
    std::size_t bodyCount() const { return n_; }
    double time() const { return time_; }  // simulated time since load()
    long long stepsTaken() const { return steps_; }

    // Advances `count` steps (enqueued; returns without waiting for the device unless timings
    // are requested later). No-op when no bodies are loaded.
    void step(int count = 1) override;

    // ---- Sharing the work with other devices (NbodyMultiDevice, the MPI run) ----
    // This simulation holds every body's position but moves only the bodies it owns,
    // begin .. begin+count-1: their forces (against all bodies), velocities and diagnostic sums.
    // load() owns all of them. Positions of the other bodies must be written into
    // workingPositions() by the caller between advance() and complete() of every step; the
    // velocities and accelerations of bodies it does not own are stale.
    void setOwnedRange(std::size_t begin, std::size_t count);  // throws if past bodyCount()
    std::size_t ownedBegin() const { return ownedBegin_; }
    std::size_t ownedCount() const { return ownedCount_; }
    // The tree's replicated integration (NbodyMultiDevice, identical devices): the owned range
    // still sets the force share and the diagnostic sums, but advance() and the closing half-kick
    // move every body, so every device keeps the whole state and no position is exchanged. The
    // caller must give every device the same state first. load() turns it off.
    void setMovesEveryBody(bool on) { movesEveryBody_ = on; }
    bool movesEveryBody() const { return movesEveryBody_; }
    // Whether the accelerations here are every body's, current: after leapfrog steps of the tree
    // on a device that moves every body (each domain's slice reached it). They then survive a
    // new owned range (setOwnedRange).
    bool holdsEveryForce() const {
        return accCurrent_ && movesEveryBody_ && sharedForcesAreSlices() &&
               integrator_ == NbodyIntegrator::Leapfrog;
    }
    // One step in two halves, with the position exchange in between:
    //   beginSteps(k); k times { advance(); exchange positions; complete(); } endSteps();
    // advance(): leapfrog kick + drift (Taylor: the whole update) of the owned bodies.
    // complete(): leapfrog: their forces at the new positions and the closing half-kick.
    // step(k) is exactly that sequence with nothing exchanged.
    void beginSteps(int count);
    void advance();
    void complete();
    void endSteps();
    // Pairs and the tree with a share of the bodies: each device computes the part of every body's
    // acceleration its share gives (pairs: its block meetings; tree: the walk of its Morton
    // domain, the same numbers in sorted order), and the caller adds the devices' parts up. Then
    // complete() leaves the closing half-kick, and advance() expects the summed accelerations:
    //   before advance(), if !accelerationsCurrent() on any device: computeSharedForces() on
    //   every device, sum, write the owned bodies' sums into workingAccelerations(),
    //   finishSharedForces(); after complete(), with leapfrog (which computes the forces there):
    //   the same sum, then finishSharedForces().
    bool forcesAreShared() const;
    bool accelerationsCurrent() const { return accCurrent_; }
    void invalidateAccelerations() { accCurrent_ = false; }  // collective: on every device
    void computeSharedForces();  // this share's part of every body's acceleration
    void finishSharedForces();   // the summed accelerations are in: the pending half-kick
    const cl::Buffer& workingAccelerations() { return state().acc; }
    // The tree needs no sum: every body's acceleration comes from the one device whose Morton
    // domain holds it, so the devices exchange their domains' slices of the sorted accelerations
    // (16 bytes per body of the domain, in sorted order; the sort is the same on every device).
    // Then computeSharedForces() leaves this device's domain in sharedForceSlices() at
    // ownedBegin() .. + ownedCount() (sorted order), the caller writes every other device's
    // slice into the same buffer at its place, and finishSharedForces() returns them to the body
    // order before the kick. workingAccelerations() is not written until then.
    bool sharedForcesAreSlices() const { return config_.variant == NbodyVariant::Tree; }
    const cl::Buffer& sharedForceSlices();
    // The same slices packed, 12 bytes a body (TreeForce::packedAccelerations: no potential),
    // where this pass walked its domain in pieces (walkSharedPiece); a caller that writes the
    // other slices there instead calls takeForceSlicesPacked() before anything returns them to the
    // body order. The potential (acc.w) of the bodies other devices walked is then 0 here, until
    // the next force pass (the diagnostics sum it pair by pair meanwhile).
    bool forceSlicesPackable();
    const cl::Buffer& sharedForceSlicesPacked();
    void takeForceSlicesPacked();
    // The tree's slice in pieces (NbodyMultiDevice, so that the slices travel while the domain is
    // walked): with walkInPieces on, computeSharedForces() builds the tree but walks nothing, and
    // the caller walks its domain with walkSharedPiece() (sorted positions within ownedBegin() ..
    // + ownedCount(); the pieces must tile it) before the slices are exchanged. Each piece writes
    // only its own bodies of sharedForceSlices(). Returns the piece's walk event.
    void setWalkInPieces(bool on) { walkInPieces_ = on; }
    bool walkInPieces() const { return walkInPieces_ && sharedForcesAreSlices(); }
    cl::Event walkSharedPiece(std::size_t begin, std::size_t count);
    // The sorted accelerations begin .. begin + count - 1 back to the body order now, on `queue`
    // (this device's, after `after`), as their slice comes in or their piece is walked; once
    // ranges that tile every body were scattered, finishSharedForces() scatters nothing more.
    // withKick: leapfrog's pending closing half-kick of those bodies in the same kernel (a device
    // that moves every body only); finishSharedForces() then kicks none, so such ranges must
    // tile every body too.
    cl::Event scatterSharedRange(std::size_t begin, std::size_t count, cl::CommandQueue& queue,
                                 const std::vector<cl::Event>& after = {}, bool withKick = false);
    // The same for several ranges in one launch (at most TreeForce::kMostScatterRanges).
    cl::Event scatterSharedRanges(const std::vector<TreeForce::SortedRange>& ranges,
                                  cl::CommandQueue& queue, const std::vector<cl::Event>& after = {},
                                  bool withKick = false);
    // Every body's acceleration back to the body order at once, with the pending closing
    // half-kick, on `queue` after `after` (which must hold every slice read): a device that moves
    // every body only, instead of scatterSharedRange() (its writes go in body order; the same
    // state). Bodies whose sorted places lie in `later` (at most TreeForce::kMostGatherSkips
    // ranges) are left for scatterSharedRange() with the kick; once every body was gathered or
    // scattered, finishSharedForces() scatters and kicks nothing more.
    cl::Event gatherSharedForces(cl::CommandQueue& queue, const std::vector<cl::Event>& after,
                                 const std::vector<TreeForce::SortedRange>& later = {});
    // The split build (compute/nbody/tree/split_build.hpp), with walkInPieces: the domains of
    // every device (sorted bodies bounds[d] .. bounds[d + 1] - 1) and this one's; the caller runs
    // exchangeEssentialTrees over every device's splitTree() between computeSharedForces() and
    // the walks. Empty bounds: every device builds the whole tree.
    void setTreeDomains(std::vector<std::size_t> bounds, std::size_t domain);
    bool treeDomainsSet() const { return !treeDomains_.empty() && walkInPieces(); }
    TreeForce& splitTree() { return tree(); }
    // The buffers the kernels work on (the double state in fp64 mode), and the bytes one body
    // takes in them.
    const cl::Buffer& workingPositions() { return state().pos; }
    const cl::Buffer& workingVelocities() { return state().vel; }
    std::size_t workingBodyBytes() const;

    // Float4 positions (xyz, mass in w) of exactly bodyCount() bodies, and velocities (xyz, w=0).
    // Both buffers stay the same objects until the next load() with a different N. Their contents
    // are current for any command enqueued on cc.queue() after step() returned; another queue or
    // the host must wait for that queue (clFinish or an event) first. In fp64 mode they are float
    // copies of the double state, refreshed at the end of each step() call and by load().
    const cl::Buffer& positions() const { return f32_.pos; }
    const cl::Buffer& velocities() const { return f32_.vel; }

    // Blocking readback of the state (rounded to float in fp64 mode) and of the accelerations the
    // last force pass computed (xyz; w: the tree's potential at the body, else 0), in the order
    // load() was given.
    std::vector<Body> readBodies() override;
    std::vector<Float4> readAccelerations();

    // The bodies' slots. The tree renumbers the bodies into its Morton order after its first force
    // pass after load() and every kTreeRenumberPasses passes after (at the next advance(), the
    // start of a step's kernels), so that each pass's gather of
    // the positions into its order and scatter of the accelerations back read and write nearly in
    // order: the state buffers (positions(), velocities(), workingPositions(), ...) hold the
    // bodies by slot, and slot s holds the body readSlotIds()[s] of load()'s order. Only a
    // simulation that moves every body renumbers: alone, or every device of a replicated split
    // at the same passes (NbodyMultiDevice and the MPI run say which with setRenumbering), so
    // that the devices' slots stay alike. Force passes are the same tree either way (the sort is
    // stable, and the renumbering keeps the tree's order), so the states are too, bit for bit.
    static constexpr int kTreeRenumberPasses = 16;
    void setRenumbering(bool allowed) { mayRenumber_ = allowed; }
    bool renumbered() const { return renumbered_; }
    std::vector<std::uint32_t> readSlotIds();  // empty: slot s holds body s
    std::vector<Body> readSlotBodies();
    std::vector<Float4> readSlotAccelerations();
    std::vector<double> readSlotAccelerationsDouble();
    // Accelerations at full precision in fp64 mode (4 doubles per body; widened in float mode).
    std::vector<double> readAccelerationsDouble() override;

    // Setters take effect at the next step and never reset the state.
    void setParams(const NbodyParams& p) override;
    const NbodyParams& params() const { return params_; }
    void setIntegrator(NbodyIntegrator i) override;
    NbodyIntegrator integrator() const { return integrator_; }
    // Throws clviz::Error when fp64 is asked for on a device without cl_khr_fp64.
    void setPrecision(NbodyPrecision p) override;
    NbodyPrecision precision() const { return precision_; }
    bool supportsFp64() const;

    // Kernel choice. Invalid values (not a power of two, above the device limit, unroll not
    // dividing the tile) throw clviz::Error with the valid range. A work-group size the built
    // kernel cannot run (CL_KERNEL_WORK_GROUP_SIZE, local memory) is clamped to the largest one
    // that fits, and kernelNote() says so.
    void setKernelConfig(const NbodyKernelConfig& c) override;
    void setWorkGroupSize(int wg);                                              // 0 = default
    void setUnroll(int unroll);                                                 // 0 = default
    void setBodiesPerItem(int bpi);                                             // 0 = default
    void setSplit(int split);                                                   // 0 = default
    const NbodyKernelConfig& kernelConfig() const override { return config_; }  // as requested
    NbodyKernelConfig effectiveKernelConfig();  // what runs: defaults resolved, clamped; builds
    const std::string& kernelNote() const { return note_; }  // last clamp or fallback, or ""
    // Variant Auto: which kernel and config it runs and why ("" before the first pick). The pick
    // is made when the kernel is first needed for an N and precision: each tile-blocking variant
    // is auto-tuned (or its remembered auto-tune result reused) and the fastest force pass wins.
    // The other config fields are ignored under Auto. Changing N or the precision re-picks.
    const std::string& autoChoice() const { return autoWhy_; }
    void setAutoTuneBudget(double secondsPerVariant) { autoBudget_ = secondsPerVariant; }
    // Where the slow calls (autotune(), Auto's pick) say how far they got, e.g. ("Auto-tuning
    // tiled (variant 2 of 3)", 5, 25): candidate 5 of at most 25. The reporter may throw to stop
    // the call (a cancelled background job does); the kernel choice is then as it was. Null: none.
    using Progress = std::function<void(const std::string& what, int done, int total)>;
    void setProgress(Progress progress) { progress_ = std::move(progress); }
    // True when the next step builds and tunes nothing: effectiveKernelConfig() did that work for
    // the current variant, N and precision. A viewer runs that call off the frame while false.
    bool forceKernelReady() const;
    std::vector<int> workGroupSizeChoices() const;  // powers of two up to the device limit

    // Relative force error |a - a_direct| / |a_direct| of `samples` bodies spread over the state,
    // a_direct summed on the device: what the tree's theta costs (all-pairs variants show float
    // rounding only). Computes the accelerations first if they are stale. Blocking, O(samples N).
    // Float precision only (returns samples = 0 in fp64 mode).
    TreeAccuracy forceAccuracy(int samples = 256);
    // The same without waiting (TreeForce::beginAccuracy): false, and nothing begun, unless the
    // tree runs on this device alone in float; the figures come from pollForceAccuracy().
    bool beginForceAccuracy(int samples = 256);
    std::optional<TreeAccuracy> pollForceAccuracy();
    // The tree variant's walk figures for the last force pass (zeros before the first).
    TreeWalkStats treeWalkStats();

    // Device time per kernel for the last step() call; waits for those kernels to finish.
    NbodyStepTimings lastStepTimings();
    // The kernels of the last step() call, named as in lastStepTimings(), and the tree's split
    // build copies of its last build (TreeForce::lastCopies), for a step's timeline.
    const std::vector<std::pair<std::string, cl::Event>>& lastStepEvents() const {
        return lastEvents_;
    }
    std::vector<TreeForce::Copy> lastTreeCopies() const;
    // The kernel one of those events ran (the tree's, noted when enqueued; else its command
    // type), empty without a tree: the step's timeline names such an event by its command type.
    std::string commandOf(const cl::Event& e) const;

    // Energy, momentum and NaN/Inf check on the device (O(N^2) like one force pass: call it every
    // k frames for large N). Blocks until done. The first call after load() sets the reference
    // energy unless resetEnergyReference() already did.
    NbodyDiagnostics diagnostics() override;
    // The same figures without ever waiting for the device (diagnostics_in_flight.cpp). The tree
    // variant (one device, float): the potential its last walk left in acc.w, summed in one O(N)
    // pass. Otherwise: a copy of the state, then the O(N^2) sum in slices, one per poll: every body
    // against a run of whole tiles of the others, sized from the last slice's measured rate to take
    // about sliceBudgetMs of device time (each slice fills the device; a slice of the bodies alone
    // would still loop over all N). Kinetic energy, momentum and the NaN census equal
    // diagnostics()'s to the last bit, the potential to rounding. A begin while one is in flight
    // does nothing. Results come only from pollDiagnostics(), which reads events and never blocks.
    void beginDiagnostics(double sliceBudgetMs) override;
    std::optional<NbodyDiagnostics> pollDiagnostics() override;
    bool diagnosticsInFlight() const override { return inFlight_ != nullptr; }
    // As an NbodySystem: one device, which draws and takes every change itself.
    std::optional<NbodyMultiTimings> sliceTimings() override { return std::nullopt; }
    NbodySimulation& primary() override { return *this; }
    std::size_t deviceCount() const override { return 1; }
    void forEachDevice(const std::function<void(NbodySimulation&)>& change) override {
        change(*this);
    }
    void resetEnergyReference();
    // The additive part of diagnostics() over the owned bodies only (each against all bodies):
    // the slices of all devices add up to the whole system's figures.
    NbodyDiagnosticSums ownedDiagnosticSums();

    // Times candidate (work-group size, bodies per item, unroll, split) for `variant` on the
    // current bodies without changing the state, within about `budgetSeconds`, and remembers the
    // best for this device, variant, precision and N in the environment's store (the app's is
    // ~/.cache/clviz/nbody-autotune.txt). The simulation then uses it for that
    // variant whenever the config fields are 0.
    NbodyAutotuneResult autotune(NbodyVariant variant, double budgetSeconds = 5.0);
    // false: 0 fields resolve to the built-in device defaults only, ignoring remembered auto-tune
    // results (the benchmark does this so its rows do not depend on ~/.cache).
    void setUseAutotuneMemory(bool use) {
        useAutotuneMemory_ = use;
        autoN_ = 0;
        invalidateKernel();
    }

    ComputeContext& context() { return cc_; }
    const NbodyEnvironment& environment() const { return env_; }

    // Live reload: fetches fresh kernels from the program cache (after ProgramCache::install),
    // keeping the bodies, parameters and kernel choice. Throws clviz::Error like the constructor.
    void reloadKernels();

  private:
    struct Kernels;
    struct Built;
    struct DiagnosticsInFlight;
    std::unique_ptr<DiagnosticsInFlight> inFlight_;
    void enqueueDiagnosticsSlice(DiagnosticsInFlight& d);
    // The state of one precision: positions (xyz, mass in w), velocities, accelerations.
    struct StateBuffers {
        cl::Buffer pos, vel, acc;
    };
    StateBuffers& state() { return precision_ == NbodyPrecision::Double ? f64_ : f32_; }

    Built& built();  // force kernel for the current config, building it once per option set
    Built& build(const NbodyKernelConfig& resolved);
    NbodyKernelConfig resolvedConfig();  // 0 fields filled in: Auto's pick, tuned, defaults
    NbodyKernelConfig autoPick();        // Auto: the fastest tuned variant and config for this N
    double timeForcePass(Built& b, const cl::Buffer& scratch, std::size_t iBodies);
    NbodyAutotuneResult autotunePairs(double budgetSeconds);  // autotune() of the pairs variant
    // The config the force pass runs: config_, or what Auto picked (possibly the pairs variant).
    NbodyKernelConfig forceConfig();
    // The one place the force kernel's arguments are set:
    // a(x) of iBodies bodies from i0 into acc, and v += kick * a when kick != 0.
    cl::Event enqueueForce(Built& b, const cl::Buffer& acc, std::size_t i0, std::size_t iBodies,
                           double kick);
    void allocate(std::size_t n, bool floatState, bool doubleState);
    void computeForces(bool kick, float kickFactor);
    bool walkInPieces_ = false;             // setWalkInPieces
    std::vector<std::size_t> treeDomains_;  // setTreeDomains
    std::size_t treeDomain_ = 0;
    // The tree's events (TreeForce::lastEvents) of its last build already in lastEvents_.
    std::size_t treeEventsTaken_ = 0;
    void takeNewTreeEvents();          // the tree's events since, into lastEvents_
    std::size_t bodiesScattered_ = 0;  // by scatterSharedRange() since the last force pass
    std::size_t bodiesKicked_ = 0;     // of those, kicked in the same kernel
    // The bodies' slots (readSlotIds): ids_[s] is slot s's body; idsSpare_ and renumberScratch_
    // take a renumbering's gathers.
    bool mayRenumber_ = true;
    bool renumbered_ = false;
    bool renumberDue_ = false;  // at the next advance()
    int passesSinceRenumber_ = 0;
    std::uint64_t renumberings_ = 0;
    long long loadIndexOfSlot(long long slot);  // blocking; -1 stays -1
    cl::Buffer ids_, idsSpare_, renumberScratch_;
    void afterTreePass();  // counts a tree pass; a renumbering may fall due
    void renumberIntoTreeOrder();
    float pendingKick_ = 0;  // the closing half-kick complete() left until the shares are summed
    void runUpdate(cl::Kernel& k, const char* name, std::initializer_list<double> reals);
    void ensureAccelerationsCurrent();
    void refreshFloatMirror();
    void convert(cl::Kernel& k, const cl::Buffer& from, const cl::Buffer& to, const char* name);
    void fetchDoubleKernels(Kernels& k);
    void uploadState(const std::vector<Body>& bodies);
    void invalidateKernel();

    ComputeContext& cc_;
    NbodyEnvironment env_;
    std::size_t n_ = 0;
    double time_ = 0;
    long long steps_ = 0;
    NbodyParams params_;
    NbodyIntegrator integrator_ = NbodyIntegrator::Leapfrog;
    NbodyPrecision precision_ = NbodyPrecision::Float;
    NbodyKernelConfig config_;
    std::string note_;

    StateBuffers f32_;         // float state (or float mirror in fp64 mode)
    StateBuffers f64_;         // double state, allocated in fp64 mode only
    unsigned ptxRefused_ = 0;  // NVIDIA: bit per variant whose build refused inline PTX
    bool useAutotuneMemory_ = true;
    double autoBudget_ = 1.0;  // seconds of auto-tune per variant when Auto has no memory
    std::size_t autoN_ = 0;    // N and precision the Auto pick below was made for (0: none)
    NbodyPrecision autoPrecision_ = NbodyPrecision::Float;
    NbodyKernelConfig autoConfig_;
    std::string autoWhy_;
    Progress progress_;
    std::string progressContext_;  // Auto's pick: " (variant 2 of 3)" while it tunes one
    bool accCurrent_ = false;      // acc holds a(x) for the current x and softening
    NbodyEnergyReference energyReference_;
    std::size_t ownedBegin_ = 0, ownedCount_ = 0;  // the bodies this simulation moves
    bool movesEveryBody_ = false;                  // setMovesEveryBody
    std::size_t movedBegin() const { return movesEveryBody_ ? 0 : ownedBegin_; }
    std::size_t movedCount() const { return movesEveryBody_ ? n_ : ownedCount_; }

    std::vector<std::pair<std::string, cl::Event>> lastEvents_;
    int lastSteps_ = 0;

    std::unique_ptr<Kernels> kernels_;
    std::unique_ptr<TreeForce> tree_;  // created when first needed
    TreeForce& tree();
    void applyTreeParams(TreeForce& t);  // theta and the far field from params_
    std::unique_ptr<PairForce> pairs_;   // created when first needed
    PairForce& pairs();
    static PairForceShape pairShape(const NbodyKernelConfig& c);  // its wg and bodies per item
};

}  // namespace clviz
