#pragma once
// The direct sum with each pair once (kernels/nbody_pairs.cl): Newton's third law gives the pull
// of i on j from the pull of j on i, so one rsqrt and one r^-3 serve two interactions. Same
// softened force as the all-pairs kernels; float only; the sums meet through float atomics, so
// results agree with the all-pairs kernels to rounding and vary at rounding level between runs.
// GL-free and independent of NbodySimulation, like TreeForce: float4 positions (xyz, mass in w)
// in, float4 accelerations (w = 0) out, every command on the context's in-order queue.
#include <cstddef>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "compute/core/cl.hpp"
#include "compute/core/inline_ptx.hpp"

namespace clviz {

class ComputeContext;

struct PairForceShape {
    int workGroupSize = 0;  // 0: by device and n (GPUs: 128 where n fills the device, else less)
    int iPerItem = 0;       // bodies each work-item holds; 0: 4
    int jPerItem = 0;       // bodies of the met block each work-item takes per phase; divides
                            // iPerItem; 0: 4 on GPUs, 2 on CPUs
    bool operator==(const PairForceShape&) const = default;
};

class PairForce {
  public:
    explicit PairForce(ComputeContext& cc);

    // acc[i] = a(pos)[i] for i < n; when vel is given and kick != 0, also vel[i].xyz += acc *
    // kick afterwards. Buffers hold at least n float4. Enqueued only. Throws clviz::Error for a
    // shape the device cannot run (with the reason) or a kernel that does not build (its log).
    void compute(const cl::Buffer& pos, std::size_t n, float softening, const cl::Buffer& acc,
                 const cl::Buffer* vel = nullptr, float kick = 0, PairForceShape shape = {});

    // One device's share of a force pass split over several devices (or MPI ranks): the blocks
    // whose meetings fall in the share [begin, begin + count) of n (as a fraction of all block
    // meetings, so shares that tile 0 .. n give every pair to exactly one device, the loads even
    // to a block), their pulls on every body added into acc (cleared first): the caller sums the
    // devices' acc. Every device must use the same block size (wg x ipi). No kick. Enqueued only.
    void computeShare(const cl::Buffer& pos, std::size_t n, float softening, const cl::Buffer& acc,
                      std::size_t begin, std::size_t count, PairForceShape shape = {});
    // vel[i].xyz += acc[i] * kick for i in begin .. begin + count - 1 (the closing half-kick once
    // the shares are summed). Event "force-kick".
    void kick(const cl::Buffer& acc, const cl::Buffer& vel, std::size_t begin, std::size_t count,
              float kick);
    // Blocks first .. last - 1 (of ceil(n / blockBodies)) that the share [begin, begin + count)
    // of n owns; pure, the same on every device.
    static std::pair<std::size_t, std::size_t> shareBlocks(std::size_t n, std::size_t blockBodies,
                                                           std::size_t begin, std::size_t count);

    // The shape compute() would use for n bodies, every field resolved.
    PairForceShape resolve(std::size_t n, PairForceShape shape) const;
    // "wg=256 ipi=8 jpi=4, 1152 groups" for n bodies.
    std::string describe(std::size_t n, PairForceShape shape = {}) const;

    // Events of the last compute(): "force-clear", "force" and (with a kick) "force-kick".
    const std::vector<std::pair<std::string, cl::Event>>& lastEvents() const { return events_; }

  private:
    struct Launch {
        PairForceShape shape;
        int chunks = 1;  // work-groups per block, each meeting a share of its blocks
        int blocks = 1;  // ceil(n / (wg * ipi))
    };
    Launch plan(std::size_t n, PairForceShape shape, std::size_t launchedBlocks = 0) const;
    void enqueue(const cl::Buffer& pos, std::size_t n, float softening, const cl::Buffer& acc,
                 const Launch& l, std::size_t firstBlock, std::size_t blocks);
    cl::Kernel& kernel(const PairForceShape& shape, bool selfGuard);

    ComputeContext& cc_;
    InlinePtxBuilds builds_;
    std::map<std::string, cl::Kernel> kernels_;  // by build options
    cl::Kernel kick_;
    std::vector<std::pair<std::string, cl::Event>> events_;
};

}  // namespace clviz
