#pragma once
// Barnes-Hut gravity on the device (kernels/nbody_tree.cl): bounding box, Morton keys, radix sort,
// Karras radix tree, centres of mass and quadrupoles, then a group walk with a shared interaction
// list. GL-free and independent of NbodySimulation: give it float4 positions (xyz, mass in w) of n
// bodies and it writes float4 accelerations, with the same softened force as the all-pairs
// kernels, so theta = 0 reproduces the direct sum; w holds the body's potential from the same walk,
// -sum_j m_j / sqrt(r^2 + eps^2) over the other bodies (cells: monopole + quadrupole), which the
// energy diagnostics sum in O(N). Every command goes on the ComputeContext's
// in-order queue; compute() returns without waiting (no host round trip per step).
#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "compute/core/cl.hpp"
#include "compute/core/command_names.hpp"

namespace clviz {

class ComputeContext;
class InlinePtxBuilds;
class TreeWindowSelect;

// Device time of each stage of the last compute() (milliseconds; from profiling events).
struct TreeStageTimes {
    double box = 0, keys = 0, sort = 0, build = 0, moments = 0, walk = 0;
    double total() const { return box + keys + sort + build + moments + walk; }
};

// The tree as the device built it, read back for tests and tools (tree_test.cpp).
struct TreeSnapshot {
    std::vector<unsigned> sortedIndex;          // sorted position -> caller's body index
    std::vector<std::pair<int, int>> children;  // internal nodes; c < 0 is leaf (sorted body ~c)
    std::vector<std::pair<int, int>> ranges;    // first and last sorted body under each node
    std::vector<float> com;                     // 4 per node: centre of mass, mass
};

struct TreeAccuracy {
    int samples = 0;    // bodies compared (those with a_direct == 0 are left out)
    double median = 0;  // of the relative errors
    double p99 = 0;     // 99th percentile
    double worst = 0;
};

// What the last walk did (for the benchmark): list entries summed per body (bodies and cells), walk
// iterations per group, groups that fell back to the direct sum.
struct TreeWalkStats {
    int groups = 0;  // walk groups (subtrees of at most groupSize bodies)
    double interactionsPerBody = 0;
    double iterationsPerGroup = 0;
    int fallbacks = 0;
    // The longest group walk: one straggler ends the launch after every other group, whatever the
    // means say.
    int maxIterations = 0;
    int maxEntriesPerBody = 0;
};

// One walk group of the last pass (a body, for the body walk): its bodies, the list entries each
// of them summed and the walk's iterations.
struct TreeGroupWalk {
    int bodies = 0;
    int entriesPerBody = 0;
    int iterations = 0;
};

// Group: work-groups of nearby bodies share one walk and its lists (GPUs). Body: one body per
// work-item with its own stack (CPU devices, where barriers and local atomics are loops). Auto:
// Body on CPU devices, Group elsewhere.
enum class TreeWalk { Auto, Group, Body };

// The far field's default angle (TreeForceOptions::thetaFar, NbodyParams::thetaFar): wider angles
// are faster and within the error line on the Plummer sphere (its preset suggests a wider one,
// NbodyPresetInfo::thetaFar), but put the colliding galaxies over it; 0.4 keeps every preset
// measured within it with a margin (docs/benchmarks.md, issue 31 rounds 7 and 8).
inline constexpr float kTreeDefaultThetaFar = 0.4f;

struct TreeForceOptions {
    TreeWalk walk = TreeWalk::Auto;
    // Defaults measured best on an H100 (docs/benchmarks.md, "issue 31: the tree's walk and sort").
    int groupSize = 128;  // most bodies per walk group (power of two, 32 .. 512; the work-group
                          // is groupSize / bodiesPerItem, clamped to the device's limit)
    // A cell of at most this many bodies that must be opened lists its bodies. 0: 4 for the group
    // walk, 8 for the body walk, whose per-body rule accepts more cells (with 4 its median error
    // on the colliding galaxies passed 1e-3).
    int leafSize = 0;
    // Local memory of the walk: bodies in the shared list (cells: half as many; halved until it
    // fits the device) and stack entries (at least groupSize + 256). 0: a stack of 1024, and with
    // the third-order far field and work-groups of 128 lists of 768, the shape that fits 7
    // work-groups on an sm_90 multiprocessor; else lists of 512.
    int listSize = 0;
    int stackSize = 0;
    int bodiesPerItem = 1;  // bodies each walk work-item sums (1 or 2): 2 reads each list entry
                            // from local memory once for two bodies
    // Fewest keys per radix-sort tile (0: no floor). The sort launches enough tiles to fill the
    // device (16 work-groups per compute unit, at most 512); at small N those tiles are short and
    // the one-work-group scan of their counts dominates the sort, which fewer, longer tiles
    // shorten.
    int sortTileKeys = 2048;
    // Bits of the key each radix-sort pass sorts by: 8 (8 passes over the 63-bit keys; each chunk
    // is grouped by digit in local memory with two 4-bit splits) or 4 (16 passes, one split each);
    // the same stable order either way. 0: 8 on GPUs up to 2^20 keys, where fewer passes shorten
    // the sort, 4 above (8-bit digits split each 128-key chunk over up to 256 runs, whose
    // scattered writes made the sort of 16M keys slower; docs/benchmarks.md, issue 31 round 4)
    // and on CPU devices (their work-group barriers are loops).
    int sortDigitBits = 0;
    // Keys each work-item of the 4-bit scatter ranks per chunk: 1 keeps radix_scatter (chunks of
    // 128 keys ranked by one work-group scan each), 2 .. 32 radix_scatter_chunks (chunks of 128
    // times this many keys, ranked in registers and placed by one scan of per-work-item digit
    // counts, so far fewer barriers per key and longer runs per digit to write); the same stable
    // order either way. 0: kDefaultSortKeysPerItem in tree_force.cpp.
    int sortKeysPerItem = 0;
    // radix_scatter_chunks (sortKeysPerItem > 1) counts the next pass's digits per output tile as
    // it writes each key (local counters per digit run, added to the tile counts once a chunk),
    // so that only the first of the 16 passes launches radix_count. Same counts, same order.
    bool sortCountInScatter = true;
    // Most registers per work-item of the group walk (NVIDIA's -cl-nv-maxrregcount, 16 .. 255;
    // the walk then goes without its required work-group size, under which ptxas ignores the
    // cap), so that more work-groups share a multiprocessor. 0: the compiler's choice. -1: 48
    // where the compiler takes NVIDIA's options (9 rather than 8 walk work-groups of 128 per
    // H100 multiprocessor; docs/benchmarks.md, issue 31 round 6), 72 there with the far field
    // (whose default local memory allows 7 work-groups at most; round 8 and session 8), else the
    // compiler's choice.
    // Other devices' compilers take no such option: a cap there throws.
    int walkRegisterCap = -1;
    // Far field of the group walk: an accepted cell whose distance R from the walk group's centre
    // satisfies (r_g + r_c) / R < thetaFar (r_g: the group's radius, r_c: the cell's extent about
    // its centre of mass) is not summed per body; the group's work-items share such cells and sum
    // their field's Taylor expansion about the group's centre (acceleration, its gradient and the
    // next order; the potential one order up), which each body then evaluates at its offset.
    // In [0, 1); 0: off (the walk as without it, bit for bit). -1: kTreeDefaultThetaFar. The body
    // walk (CPU devices) ignores it.
    float thetaFar = -1;
    // The far field's expansion: 3 goes to the second derivatives of the acceleration (truncation
    // as thetaFar^3); 4 adds the monopole's third and the quadrupole's second (thetaFar^4; 15 more
    // coefficients per work-item in local memory), 3 to 5 times closer to the walk without the far
    // field but slower than 3 at a wider angle of the same accuracy (docs/benchmarks.md, issue 31
    // round 8), hence not the default.
    int farOrder = 3;
    // compute() with a velocity buffer and a kick: scatter_accelerations adds the kick to each
    // velocity as it writes the body's acceleration (true), or a second kernel adds it over the
    // caller's order afterwards (false). The scatter goes in the tree's order, so its velocity
    // reads and writes land at random places in the caller's; the second kernel's are in order.
    // The same velocities, bit for bit, either way.
    bool kickInScatter = false;
};

class TreeForce {
  public:
    // Builds the kernels (throws clviz::Error with the build log on failure).
    explicit TreeForce(ComputeContext& cc, TreeForceOptions options = {});
    ~TreeForce();
    TreeForce(const TreeForce&) = delete;
    TreeForce& operator=(const TreeForce&) = delete;

    // Opening angle: a cell of longest side l whose centre of mass lies d from a group's bounding
    // box and delta from its own centre is used whole when l / theta + delta < d. 0 opens every
    // cell (the direct sum). Throws clviz::Error outside [0, 2].
    void setTheta(float theta);
    // The far field's angle (TreeForceOptions::thetaFar) from the next pass on; switching it on or
    // off rebuilds the walk. Throws clviz::Error outside [0, 1).
    void setThetaFar(float thetaFar);
    float theta() const { return theta_; }

    // acc[i] = a(pos)[i] for i < n; when vel is given and kick != 0, also vel[i].xyz += acc * kick
    // (the closing half-kick of leapfrog, as the all-pairs kernels fuse it). n in 1 ..
    // kMaxBodies; buffers hold at least n float4. Grows its work buffers as n needs; throws
    // clviz::Error when the device cannot hold them. Enqueued only.
    void compute(const cl::Buffer& pos, std::size_t n, float softening, const cl::Buffer& acc,
                 const cl::Buffer* vel = nullptr, float kick = 0);

    // One device's share of a force pass split over several devices (or MPI ranks): the whole
    // tree is built (the same tree on every device: same positions, same kernels), but only the
    // bodies begin .. begin + count - 1 of the Morton order (its domain) get their accelerations
    // (group walk: every walk group that holds one of them is walked); every other body's is
    // written as 0, so the devices' acc add up to compute()'s exactly. No kick. Enqueued only.
    void computeShare(const cl::Buffer& pos, std::size_t n, float softening, const cl::Buffer& acc,
                      std::size_t begin, std::size_t count);

    // computeShare() for splits that exchange the domains' slices instead of summing parts: the
    // accelerations stay in Morton order in sortedAccelerations(), the domain's filled and every
    // other body's 0 (no return to the caller's order). The caller writes the other domains' slices
    // into that buffer (every device sorts the same way, so a slice means the same bodies
    // everywhere), then scatterSorted() writes every body's acceleration into acc. Enqueued only.
    void computeShareSorted(const cl::Buffer& pos, std::size_t n, float softening,
                            std::size_t begin, std::size_t count);
    const cl::Buffer& sortedAccelerations() const { return sortedAcc_; }
    // The same accelerations packed, 12 bytes a body (x, y, z: no potential), written by the walks
    // in pieces (walkSortedPiece) and the body walk, for an exchange that moves a quarter fewer
    // bytes. Once the other devices' slices came into this buffer instead of the sorted one,
    // takeSlicesPacked(begin, count) (this device's own walk: sorted bodies begin .. begin + count
    // - 1) has this pass's scatters and gathers read every other body's acceleration here, with 0
    // for its potential. Until the next pass.
    const cl::Buffer& packedAccelerations() const { return packedAcc_; }
    void takeSlicesPacked(std::size_t begin, std::size_t count);
    bool slicesTakenPacked() const { return packedOthers_; }  // this pass's, since takeSlicesPacked
    // computeShareSorted() in pieces, so that a piece's accelerations can travel while the next is
    // walked: buildShareSorted() enqueues everything but the walk; then walkSortedPiece() walks
    // the bodies begin .. begin + count - 1 of the Morton order (every walk group that holds one
    // of them, keeping those bodies alone) and writes nothing else of sortedAccelerations(), so
    // copies into and out of its other bodies may run meanwhile. Pieces that tile a domain give
    // computeShareSorted()'s slice exactly. Returns the walk's event. Enqueued only.
    // The group walk's pieces go on two queues in turn (the context's and one of the tree's), so
    // that each piece's last groups run beside the next piece's first: a reader of a piece's
    // accelerations waits for its event, or for joinPieces(), which puts a barrier for them all
    // on the context's queue (scatterSorted() and the next pass do so themselves).
    void buildShareSorted(const cl::Buffer& pos, std::size_t n, float softening);
    cl::Event walkSortedPiece(std::size_t begin, std::size_t count);
    void joinPieces();
    // The last pass was buildShareSorted() or buildDomainSorted(): its pieces wait to be walked.
    bool builtForPieces() const { return builtForPieces_; }
    // sortedAccelerations() of the last pass back to the caller's order (acc holds its n bodies),
    // and with vel and a kick != 0 leapfrog's closing half-kick of every body as it goes (the
    // same velocities, bit for bit, as a kick over acc afterwards).
    cl::Event scatterSorted(const cl::Buffer& acc, const cl::Buffer* vel = nullptr,
                            float kick = 0.0f);
    // The same for the sorted bodies begin .. begin + count - 1 only, on `queue` (this device's),
    // after `after` and the other domains' slices of the sorted order: ranges that tile the bodies
    // give scatterSorted(), each as soon as its accelerations are in.
    cl::Event scatterSortedRange(const cl::Buffer& acc, std::size_t begin, std::size_t count,
                                 cl::CommandQueue& queue, const std::vector<cl::Event>& after,
                                 const cl::Buffer* vel = nullptr, float kick = 0.0f);
    // scatterSorted() turned around: every body reads its acceleration at its sorted place, so
    // the writes (acc, and with vel and kick != 0 the closing half-kick) go in body order; the
    // same values. On `queue` after `after` (which must hold every slice of the sorted
    // accelerations). It needs every body's sorted place, which invertOrder() works out first
    // (on `queue`, after the other domains' slices of the order; this call does where it was not).
    // Bodies whose sorted places lie in `skip` are left for scatterSortedRange() (those
    // accelerations may come later); at most kMostGatherSkips ranges.
    struct SortedRange {
        std::size_t begin = 0, count = 0;
    };
    static constexpr std::size_t kMostGatherSkips = 8;
    // scatterSortedRange() over several ranges in one launch (the same writes), at most
    // kMostScatterRanges, each within the last pass's bodies; none may overlap another. (A gather
    // over every body that takes only those ranges was slower: it reads every body's place,
    // session 19.)
    static constexpr std::size_t kMostScatterRanges = 8;
    cl::Event scatterSortedRanges(const cl::Buffer& acc, const std::vector<SortedRange>& ranges,
                                  cl::CommandQueue& queue, const std::vector<cl::Event>& after,
                                  const cl::Buffer* vel = nullptr, float kick = 0.0f);
    cl::Event gatherSorted(const cl::Buffer& acc, cl::CommandQueue& queue,
                           const std::vector<cl::Event>& after, const cl::Buffer* vel = nullptr,
                           float kick = 0.0f, const std::vector<SortedRange>& skip = {});
    void invertOrder(cl::CommandQueue& queue);
    // The sorted order of the last pass (n uints: every sorted position's index into the caller's
    // bodies), valid until the next pass; complete for commands on the context's queue after
    // gatherInLastOrder() (the split build's other domains' slices come on a queue of their own).
    const cl::Buffer& lastOrder() const;
    // into[i] = from[lastOrder()[i]] for the last pass's bodies (float4 each), with the kernel
    // that gathers the positions for a pass, after the whole order is in. Enqueued only.
    cl::Event gatherInLastOrder(const cl::Buffer& from, const cl::Buffer& into);

    // The split build (compute/nbody/tree/split_build.hpp runs it over several devices): the
    // device walks the domain bounds[domain] .. bounds[domain + 1] - 1 of the sorted bodies
    // (bounds[0] = 0 <= ... <= bounds.back() = n, the same list on every device).
    // buildDomainSorted() sorts only its domain and a walk group's bodies either side
    // (TreeWindowSelect), builds the nodes within the domain and their moments; then, in this
    // order: domainShare() of every device goes to every other; buildAcross() with every
    // domain's prefix table builds the nodes across domains whose index lies in this one
    // (acrossRecords() reads them); essentialFor() each other device's cells gives what that
    // device's walk may read here; domainRoots() adds the roots to the share; graftDomains()
    // takes every domain's nodes across domains, roots and what the others sent (waiting for
    // their copies out).
    // After that walkSortedPiece() reads what one device's walk would, and scatterSorted() waits
    // for the other domains' slices of the sorted order.
    // A node record is kTreeRecordFloat4s float4 (a node's figures, shape and index); a body
    // record (sorted position, body index).
    static constexpr std::size_t kTreeRecordFloat4s = 6;
    // What a walk reads of a node (WALK_RECORD in kernels/nbody_tree.cl): 14 floats.
    static constexpr std::size_t kTreeWalkRecordBytes = 56;
    struct DomainShare {
        std::vector<cl_int> table;        // the common prefixes at the domain's ends
        std::vector<cl_float4> roots;     // records of the roots of its subtrees
        std::vector<cl_int2> rootBodies;  // bodies of those roots the walks may list
        std::vector<cl_float4> cells;     // boxes around the bodies its walk groups hold
    };
    // What essentialFor() found for one other domain, in this device's pinned memory (valid
    // until this device's next essentialFor() for the same slot, which comes after every
    // device's graftDomains() of this pass has run on its queue).
    struct Essential {
        const void* nodes = nullptr;  // walk records (kTreeWalkRecordBytes each)
        std::size_t nodeCount = 0;
        const cl_int2* bodies = nullptr;
        std::size_t bodyCount = 0;
        std::vector<cl::Event> copies;  // the copies out that put them there
    };
    bool domainBuilt() const { return domainBuilt_; }  // the last pass was buildDomainSorted()
    void buildDomainSorted(const cl::Buffer& pos, std::size_t n, float softening,
                           const std::vector<std::size_t>& bounds, std::size_t domain);
    // Blocking, its table and cells only: read before the domain's moments, so that the others'
    // essential kernels can follow their own moments at once.
    DomainShare domainShare();
    // Blocking: the roots and their bodies into `share` (read after the moments).
    void domainRoots(DomainShare& share);
    // The nodes across domains whose index lies in this domain, from every domain's prefix
    // table, and their records' copy out: enqueued by essentialFor() after its first kernels, or
    // by acrossRecords(), which waits for that copy.
    void buildAcross(const std::vector<std::vector<cl_int>>& tables);
    std::vector<cl_float4> acrossRecords();
    // For every other domain e (cellsOf[e]: its DomainShare::cells; this domain's entry is
    // skipped), what its walk may read here (result [e]): blocking until the kernels have counted
    // them, and on their way to the pinned memory then (Essential::copies).
    std::vector<Essential> essentialFor(const std::vector<const std::vector<cl_float4>*>& cellsOf);
    // This domain's slice of the sorted order: every body's index at its sorted position, in
    // pinned memory (read there while the build went on); waits for that read.
    const cl_uint* domainIndex();
    // Enqueued after the essential records' copies in (graftDomains()), on the same queue beside
    // the walk: the other domains' slices of the sorted order (indexFrom[d]: domain d's
    // domainIndex(); its own is skipped), which scatterSorted() and invertOrder() wait for.
    // (Copied in during the essential phase and inverted before the graft, session 19, they held
    // the essential kernels or the essential records back on the copy engine wherever placed.)
    void receiveOrder(const std::vector<const cl_uint*>& indexFrom);
    // Enqueued: the nodes across domains and the roots of every domain (this one's too), the walk
    // groups' order, and, once their copies out are done (a blocking wait), what every other
    // domain sent this one.
    void graftDomains(const std::vector<const std::vector<cl_float4>*>& across,
                      const std::vector<const std::vector<cl_float4>*>& roots,
                      const std::vector<const std::vector<cl_int2>*>& rootBodies,
                      const std::vector<Essential>& received);

    // Per-stage device times of the last compute(); waits for it.
    TreeStageTimes lastTimes();
    // Events of the last compute(), named by stage ("tree-box", "tree-keys", ...), for callers
    // that keep their own per-kernel tables.
    const std::vector<std::pair<std::string, cl::Event>>& lastEvents() const { return events_; }
    // The kernel (or command type) of each of this pass's commands, by event, for timelines.
    const CommandNames& commandNames() const { return commandNames_; }
    // The split build's copies between device and host of the last build ("essential out",
    // "graft in", "index out", "index in"; none for a whole build), for a step's timeline.
    struct Copy {
        std::string name;
        cl::Event event;
        std::size_t bytes = 0;
    };
    const std::vector<Copy>& lastCopies() const { return copies_; }

    // Groups of the last compute() whose walk stack overflowed and which summed directly instead
    // (exact but slow; 0 in any sane tree). Blocking read.
    int lastFallbacks();

    // Blocking; reads one int2 per group. lastGroupWalks: every group of the last pass, in the
    // groups' order (find_groups', or body order for a piece), for tools looking for stragglers.
    TreeWalkStats lastWalkStats();
    std::vector<TreeGroupWalk> lastGroupWalks();

    // Blocking read of the tree the last compute() built.
    TreeSnapshot readTree();
    // Blocking read of the walk groups (first, last sorted body) in body order, as the pieces'
    // walks take them, after buildShareSorted() with the group walk (empty otherwise).
    std::vector<std::pair<int, int>> readGroupsInBodyOrder();

    // The tree's radix sort on its own, for tests: sorts `keys` (each below 2^63, as Morton keys
    // are) with the kernels compute() uses and returns sorted position -> index into keys. Stable:
    // equal keys keep their order. Blocking; leaves the tree of the last compute() unreadable.
    std::vector<unsigned> sortKeys(const std::vector<unsigned long long>& keys);

    // Relative force error |a - a_direct| / |a_direct| of `samples` bodies spread evenly over the
    // n bodies, a_direct summed on the device in float (one work-group per body), a read from
    // `acc` (e.g. what compute() wrote). Blocking; costs samples * n interactions.
    TreeAccuracy accuracy(const cl::Buffer& pos, std::size_t n, float softening,
                          const cl::Buffer& acc, int samples = 256);
    // accuracy() in two halves, for a frame loop that must not wait: beginAccuracy() enqueues the
    // direct sums and their read into pinned memory; pollAccuracy() returns the figures once that
    // read has run (nullopt before, and when none was begun), reading its event only.
    void beginAccuracy(const cl::Buffer& pos, std::size_t n, float softening, const cl::Buffer& acc,
                       int samples = 256);
    std::optional<TreeAccuracy> pollAccuracy();

    int groupSize() const { return bodyWalk_ ? 1 : wg_ * bpi_; }  // bodies sharing one walk
    bool bodyWalk() const { return bodyWalk_; }
    float thetaFar() const { return far_ ? options_.thetaFar : 0.0f; }  // 0: no far field
    int walkStackSize() const { return stack_; }  // the group walk's stack entries (-DSTACK)
    int walkListSize() const { return list_; }    // the group walk's list length (-DLIST)
    std::size_t bytesPerBody() const;  // device memory the tree needs per body (for messages)

  private:
    void reserve(std::size_t n);
    void releaseBuffers();
    void refreshKernels();  // (re)fetches kernels when the program cache changed (live reload)
    void enqueueSort(std::size_t n);
    void enqueue(const cl::Buffer& pos, std::size_t n, float softening, const cl::Buffer& acc,
                 const cl::Buffer* vel, float kick, std::size_t shareBegin, std::size_t shareEnd,
                 bool scatter = true, bool walk = true);
    // inOrder: the groups of counters[2] .. counters[3] in body order (piece_groups), else every
    // group from the counter at 0.
    // A piece's walk (inOrder) goes on `on` with `counters` (the piece's run and its fallbacks)
    // after `after`.
    cl::Event enqueueWalk(std::size_t n, float softening, std::size_t shareBegin,
                          std::size_t shareEnd, bool writeOthers, bool inOrder = false,
                          cl::CommandQueue* on = nullptr, const cl::Buffer* counters = nullptr,
                          const std::vector<cl::Event>* after = nullptr);
    // One kernel on the context's queue over `global` work-items (rounded up to `local`), its
    // event kept under `stage` ("tree-box", ...) for lastTimes().
    void enqueueStage(cl::Kernel& k, std::size_t global, std::size_t local, const char* stage);
    // A kernel enqueued (on any of this tree's queues) into events_ under its stage, and its name
    // into commandNames_.
    void recordLaunch(const std::string& stage, const cl::Event& e, const cl::Kernel& k);
    // A wait list of the command recorded last (events_' last): what follows it on another queue.
    std::vector<cl::Event> afterLastCommand() const;
    void enqueueGroupOrder(std::size_t n);  // groupsInOrder_ from the groups find_groups found
    void preparePieces();  // after a build for pieces: the second queue, the counters zeroed
    // The bounding box and every body's Morton key and index into keys_[into], index_[into].
    void enqueueBoxAndKeys(const cl::Buffer& pos, std::size_t n, int into);
    void reserveGroupOrder();  // the buffers of the group order, for capacity_

    ComputeContext& cc_;
    TreeForceOptions options_;
    int wg_ = 128, bpi_ = 1, leaf_ = 4, list_ = 1024, stack_ = 1024, sortKpi_ = 1;
    bool bodyWalk_ = false;
    int walkListFor(bool far) const;  // the lists' length that fits local memory (throws if none)
    bool farShapedForSm90(bool far) const;  // the walk's far-field lists apply
    // The last pass's groups and, in `fallbacks`, its direct-sum fallbacks (one counters read).
    std::vector<TreeGroupWalk> readGroupWalks(int& fallbacks);
    // The first `groups` walk groups (first, last sorted body) of the last pass, from the list its
    // walk took them from (in body order after buildShareSorted). Blocking.
    std::vector<std::pair<int, int>> readGroupRanges(std::size_t groups);
    bool far_ = false;              // the group walk's far field (options_.thetaFar > 0)
    bool autoRegisterCap_ = false;  // walkRegisterCap -1 on NVIDIA: the cap follows far_
    float theta_ = 0.5f;
    std::size_t capacity_ = 0;
    float lastSoftening_ = -1;
    bool lastSelfGuard_ = false;
    std::size_t lastN_ = 0;
    float pieceSoftening_ = 0;  // buildShareSorted()'s, for the pieces' walks

    struct Kernels;
    std::unique_ptr<Kernels> k_;
    // The walks' and the moments' builds (NV_INLINE_PTX where taken).
    std::unique_ptr<InlinePtxBuilds> ptx_;
    std::vector<std::pair<std::string, cl::Event>> events_;
    std::vector<Copy> copies_;  // lastCopies()
    cl::Buffer dropPartials_;   // domain_drops' work-groups' partial prefix tables
    std::size_t dropPartialsBytes_ = 0;

    // Work buffers, grown to capacity_ bodies.
    cl::Buffer partials_, box_, keys_[2], index_[2], counts_, sorted_, sortedAcc_;
    // The next pass's tile counts while radix_scatter_chunks counts them, and the buffer it zeroes
    // for the pass after (enqueueSort).
    cl::Buffer countsNext_, countsThird_;
    cl::Buffer children_, ranges_, nodeParent_, leafParent_, visits_, nodeCom_, nodeQa_, nodeQb_,
        walkStats_, groups_, nodeLo_, nodeHi_, crit_, counters_, sampleOut_;
    // The walk groups in body order for the pieces' walks (order_groups in kernels/nbody_tree.cl):
    // one bit a body marking the groups' starts, their prefix counts per word and per block of
    // words, and the ordered list.
    cl::Buffer groupStarts_, startsBefore_, startsBlocks_, groupsInOrder_;
    std::size_t groupOrderCapacity_ = 0;  // bodies they hold (made at the first pass in pieces)
    // The split build: its window select, the window [w0, w0 + m) of the sorted order it sorted,
    // the global index (its window's, then every domain's), its prefix table, the nodes across
    // domains listed, the roots' and cells' records, the essential nodes' and bodies' records,
    // the records grafted, every domain's tables, lists of nodes across domains and of roots,
    // its counters (kernels/nbody_tree.cl: the split build) and the positions it built from.
    std::unique_ptr<TreeWindowSelect> window_;
    std::size_t w0_ = 0, m_ = 0;
    cl::Buffer globalIndex_, table_, across_, acrossRecords_, rootRecords_, rootBodies_, cells_,
        graftSmall_, tables_, splitCounters_, pos_;
    std::vector<cl::Buffer> graftParts_;  // graftDomains()'s parts of graftSmall_
    // One sender's records in essentialIn_ and essentialBodiesIn_, and their copies in.
    struct Landing {
        std::size_t nodeAt, nodes, bodyAt, bodies;
        std::vector<cl::Event> in;
    };
    std::vector<Landing> receiveRecords(const std::vector<Essential>& received);
    void graftRecords(const std::vector<Landing>& landings);
    cl::Buffer essentialIn_, essentialBodiesIn_;  // the other domains' records, for the grafts
    std::vector<std::size_t> sentBefore_;  // essential nodes sent each domain at the last build
    std::size_t splitCapacity_ = 0;
    // Per other domain: its cells, the counters, the essential nodes' and bodies' records and
    // their rooms.
    std::vector<cl::Buffer> cellBoxes_, targetCounters_, records_, bodyRecords_;
    cl::Buffer opens_;  // what one other domain's walk may do with each node (essential_flags)
    std::vector<std::size_t> recordsCapacity_, bodyRecordsCapacity_;
    std::vector<std::size_t> bounds_;  // of the last buildDomainSorted()
    std::size_t domain_ = 0;
    bool domainBuilt_ = false;     // the last pass was buildDomainSorted()
    bool builtForPieces_ = false;  // builtForPieces()
    // Pinned host memory of the split build: the sorted order's slices (two, by pass parity: the
    // others may still read the last pass's while this one's is written) and each slot's
    // essential records.
    struct SplitHost;
    std::unique_ptr<SplitHost> splitHost_;
    cl::CommandQueue side_;        // the essential records' and the sorted order's copies
    cl::CommandQueue cellsQueue_;  // essentialFor()'s cells and counters in
    cl::CommandQueue& cellsQueue();
    // The split build's small reads to the host (its share, its roots, each domain's counts) and
    // the walk statistics' zeroes: on the kernels' queue each held the next kernel back.
    cl::CommandQueue readsQueue_;
    CommandNames commandNames_;  // this pass's commands' kernels (cleared with events_)
    // The pieces' walks (walkSortedPiece): the second queue, each queue's counters (a piece's run
    // of groups and its fallbacks), the marker they start after, the second queue's walks.
    cl::CommandQueue pieceQueue_;
    cl::Buffer pieceCounters_[2];
    int piecesWalked_ = 0;
    // The sorted places the pieces walked since the build (readGroupWalks reports no work for a
    // group outside them: its stats were not written, and are not zeroed beforehand).
    std::size_t piecesLo_ = 0, piecesHi_ = 0;
    cl::Event piecesFrom_;
    std::vector<cl::Event> pieceWalks_;
    cl::Event indexRead_;   // this pass's slice into pinned memory
    cl::Event acrossRead_;  // buildAcross()'s records out (null: none built)
    std::size_t acrossCountsAt_ = 0, acrossRecordsAt_ = 0;  // where in splitHost_->across
    int acrossTables_ = 0;  // the domains' tables buildAcross() wrote
    // buildAcross()'s kernel and its reads, not enqueued yet.
    bool acrossPending_ = false;
    void enqueueAcross();                 // build_across and its reads
    std::vector<cl::Event> indexWrites_;  // the others' slices in (scatterSorted waits)
    // Every body's sorted place for gatherSorted(), and when it is complete (null: not this pass).
    cl::Buffer rank_;
    cl::Event rankReady_;
    cl::Buffer packedAcc_;       // packedAccelerations()
    bool packedOthers_ = false;  // takeSlicesPacked() this pass
    std::size_t ownBegin_ = 0, ownCount_ = 0;
    // The consumers' ownLo, ownHi (sortedAccAt in nbody_tree.cl): [0, n) where nothing came packed.
    std::pair<int, int> ownSortedAccelerations() const;
    // What a command reading lastOrder() waits for: the split build's other slices of the order
    // (null: nothing).
    const std::vector<cl::Event>* lastOrderWaits() const;
    std::vector<cl::Event> withOrderWaits(const std::vector<cl::Event>& after) const;  // and those
    int parity_ = 0;
    void enqueueDomainBuild(const cl::Buffer& pos, std::size_t n);
    void reserveSplit(std::size_t domains);
    // Where sub-buffers of one buffer may start: the device's base address alignment, at least
    // 256 bytes.
    std::size_t subBufferAlign() const;
    // `buffer` grown (a quarter more) where it holds fewer than `bytes`; its contents go then.
    void fitBuffer(cl::Buffer& buffer, std::size_t bytes);
    // groupsInOrder_ holds this pass's groups (buildShareSorted), which its pieces' walks took
    // and their stats follow; any other pass walks groups_.
    bool groupsOrdered_ = false;
    // The accuracy sample's results in pinned memory (ALLOC_HOST_PTR, mapped once), the read in
    // flight and how many bodies it holds.
    cl::Buffer sampleStaging_;
    float* sampleHost_ = nullptr;
    cl::Event sampleRead_;
    std::size_t sampleCount_ = 0;
    int sortedBuffer_ = 0;  // which of keys_/index_ holds the sorted result
};

}  // namespace clviz
