#pragma once
// The N-body choices a user names: force-kernel variants, integrators, precision, and the launch
// configuration of a force kernel. Names, one-line descriptions and parsers live here, so the
// CLI, the GUI and the benchmark read them from one table.
#include <string>
#include <vector>

namespace clviz {

// The force kernels users compare. All compute the same thing; they differ in how they reach it.
enum class NbodyVariant {
    Naive,       // every work-item reads every body from global memory
    Tiled,       // tiles of bodies staged in local memory between barriers (the course's kernel)
    Unrolled,    // tiled, compile-time tile, inner loop unrolled, several bodies per work-item
    Vectorized,  // tiles in structure-of-arrays layout, float4 math over 4 j-bodies at once
    AsyncCopy,   // double-buffered tiles fetched with async_work_group_copy
    SmallN,      // several work-items split one body's j-range and reduce in local memory
    Auto,   // not a kernel: whichever of the above the auto-tune measured fastest here, for this N
    Tree,   // Barnes-Hut tree (compute/nbody/tree/): O(N log N), approximate by NbodyParams::theta;
            // float only; not one of the all-pairs kernels above, so Auto never picks it
    Pairs,  // the direct sum with each pair once (compute/nbody/pairs/): Newton's third law halves
            // the arithmetic; float only, one device, sums meet through atomics in no fixed order
};

// The force methods with a class of their own (Tree, Pairs): they compute in float only and on
// one device (every body's acceleration in one place).
constexpr bool runsOnOneDeviceInFloat(NbodyVariant v) {
    return v == NbodyVariant::Tree || v == NbodyVariant::Pairs;
}

enum class NbodyIntegrator {
    Taylor,    // the course's update: x += v dt + a dt^2 / 2, then v += a dt
    Leapfrog,  // kick-drift-kick (symplectic; the default)
};

enum class NbodyPrecision { Float, Double };

const std::vector<NbodyVariant>& allNbodyVariants();  // the six kernels (not Auto)
const char* variantName(NbodyVariant v);              // "naive", "tiled", "unrolled", "vectorized",
                                                      // "async-copy", "small-n"
const char* variantDescription(NbodyVariant v);       // one sentence for tooltips
const char* variantDefine(NbodyVariant v);  // the kernel's -D switch ("VARIANT_TILED"; "" for Auto)
std::vector<std::string> variantNames();    // of allNbodyVariants()
NbodyVariant parseVariant(const std::string& name);  // also "auto", "tree", "pairs"; throws
                                                     // clviz::Error listing valid names
// The launch settings a variant's kernel reads (kernels/nbody_force.cl); the others are fixed at 1
// for it, so the Simulation panel offers exactly these and the auto-tune sweeps only these.
struct NbodyTunables {
    bool workGroupSize = false;  // WG: the tile length
    bool unroll = false;         // UNROLL
    bool bodiesPerItem = false;  // BPI
    bool split = false;          // SPLIT (small-n)
};
constexpr NbodyTunables tunablesOf(NbodyVariant v) {
    switch (v) {
        case NbodyVariant::Naive:
        case NbodyVariant::Tiled:  // the tile length is read at run time, one body per item
            return {true, false, false, false};
        case NbodyVariant::Unrolled:
        case NbodyVariant::Vectorized:
        case NbodyVariant::AsyncCopy:
            return {true, true, true, false};
        case NbodyVariant::SmallN:
            return {true, true, true, true};
        case NbodyVariant::Pairs:  // WG and the bodies each work-item holds
            return {true, false, true, false};
        case NbodyVariant::Auto:  // the auto-tune picks every setting
        case NbodyVariant::Tree:  // its launch shapes are fixed by the tree code (TreeForce)
            break;
    }
    return {};
}
// Unrolled, vectorized, async-copy and small-n: compile-time tiles, an unrolled inner loop and
// several bodies per work-item (the unroll and bodies-per-item fields mean something).
inline bool usesTileBlocking(NbodyVariant v) {
    return tunablesOf(v).unroll;
}

const char* integratorName(NbodyIntegrator i);  // "taylor", "leapfrog"
const char* integratorDescription(NbodyIntegrator i);
NbodyIntegrator parseIntegrator(const std::string& name);  // throws clviz::Error

// How the force kernel is launched. 0 in a field means "the default for this device, variant
// and N" (the auto-tuned value once autotune() has run). effectiveKernelConfig() resolves them.
// A new simulation starts with the device's best all-round variant: small-n on GPUs (it splits
// bodies only when N is too small to fill the device), vectorized on CPUs.
struct NbodyKernelConfig {
    NbodyVariant variant = NbodyVariant::Unrolled;
    int workGroupSize = 0;  // work-items per group = bodies per local-memory tile; power of two
    int unroll = 0;         // inner-loop unroll factor: 1, 2, 4, ..., up to the tile size
    int bodiesPerItem = 0;  // i-bodies each work-item accumulates (register blocking): 1, 2, 4, 8
    int split = 0;          // small-n only: work-items sharing one body's j-range: 1 .. 32
    bool operator==(const NbodyKernelConfig&) const = default;
};
std::string describe(const NbodyKernelConfig& c);  // "unrolled wg=256 unroll=16 bpi=4"

}  // namespace clviz
