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
            // the arithmetic; float only, sums meet through atomics in no fixed order
};

enum class NbodyIntegrator {
    Taylor,    // the course's update: x += v dt + a dt^2 / 2, then v += a dt
    Leapfrog,  // kick-drift-kick (symplectic; the default)
};

enum class NbodyPrecision { Float, Double };

// The launch settings a variant's kernel reads (kernels/nbody_force.cl); the others are fixed at 1
// for it, so the Simulation panel offers exactly these and the auto-tune sweeps only these.
struct NbodyTunables {
    bool workGroupSize = false;  // WG: the tile length
    bool unroll = false;         // UNROLL
    bool bodiesPerItem = false;  // BPI
    bool split = false;          // SPLIT (small-n)
};

// Where a new simulation starts for a variant, on a GPU or a CPU, before N and the device's
// limits adjust it (nbodyDeviceDefaults).
struct NbodyLaunchDefaults {
    int workGroupSize = 0, unroll = 0, bodiesPerItem = 0;
};

// Everything clviz knows about one variant, in one row. The choice lists (--set nbody.variant,
// the Simulation panel) show the rows in this order; the auto-tune, the benchmark, the build
// options and the defaults read their columns.
struct NbodyVariantRow {
    NbodyVariant variant;
    const char* name;         // what users type and see ("small-n")
    const char* define;       // nbody_force.cl's -D switch; "" when not one of its kernels
    const char* description;  // one sentence for tooltips
    NbodyTunables tunables;   // the launch settings its kernel reads
    bool autoConsiders;       // `auto` times it and may pick it
    bool oneDeviceInFloat;    // a class of its own, float only; split, the devices sum its parts
    NbodyLaunchDefaults gpu, cpu;
    bool fewerBodiesPerItemAtSmallN;  // on GPUs, halve BPI until the device has groups enough
    int localTiles;                   // tiles of WG bodies in local memory (nbodyLocalBytes)
};

// Auto is not a kernel (the auto-tune's pick); Tree and Pairs have classes of their own
// (compute/nbody/tree/, compute/nbody/pairs/): their tunables are what those classes read, their
// launch defaults and local tiles those of the all-pairs kernels, which their classes size from.
inline constexpr NbodyVariantRow kNbodyVariants[] = {
    {NbodyVariant::Auto,
     "auto",
     "",
     "Whichever variant and launch configuration the auto-tune measured fastest on this device "
     "for this N (re-picked when N changes).",
     {},
     false,
     false,
     {256, 16, 4},
     {64, 4, 2},
     true,
     1},
    {NbodyVariant::Naive,
     "naive",
     "VARIANT_NAIVE",
     "Each work-item reads every body straight from global memory.",
     {true, false, false, false},
     false,
     false,
     {256, 1, 1},
     {64, 1, 1},
     false,
     0},
    {NbodyVariant::Tiled,
     "tiled",
     "VARIANT_TILED",
     "Tiles of bodies staged in local memory between barriers; plain inner loop (the course "
     "baseline).",
     {true, false, false, false},
     false,
     false,
     {256, 1, 1},
     {64, 1, 1},
     false,
     1},
    {NbodyVariant::Unrolled,
     "unrolled",
     "VARIANT_UNROLLED",
     "Tiled with a compile-time tile, the inner loop unrolled and several bodies per work-item.",
     {true, true, true, false},
     true,
     false,
     {256, 16, 4},
     {64, 4, 2},
     true,
     1},
    {NbodyVariant::Vectorized,
     "vectorized",
     "VARIANT_VECTORIZED",
     "Structure-of-arrays tiles; float4 arithmetic handles 4 j-bodies per operation.",
     {true, true, true, false},
     true,
     false,
     {256, 4, 4},
     {128, 2, 2},
     true,
     1},
    {NbodyVariant::AsyncCopy,
     "async-copy",
     "VARIANT_ASYNC_COPY",
     "Double-buffered tiles fetched with async_work_group_copy while the previous one is used.",
     {true, true, true, false},
     true,
     false,
     {256, 16, 4},
     {64, 4, 2},
     true,
     2},
    {NbodyVariant::SmallN,
     "small-n",
     "VARIANT_SMALL_N",
     "Several work-items split each body's j-range and reduce in local memory: fills big GPUs "
     "at small N.",
     {true, true, true, true},
     true,
     false,
     {256, 8, 4},
     {64, 4, 1},
     false,
     1},
    {NbodyVariant::Tree,
     "tree",
     "",
     "Barnes-Hut tree on the device: Morton sort, radix tree, quadrupole cells, group walk. "
     "O(N log N); theta sets the accuracy (0 = exact direct sum). Float only.",
     {},
     false,
     true,
     {256, 16, 4},
     {64, 4, 2},
     true,
     1},
    {NbodyVariant::Pairs,
     "pairs",
     "",
     "Direct sum with each pair once (Newton's third law): one rsqrt and one r^-3 serve both "
     "bodies, a third less arithmetic per interaction. Float only; the sums meet "
     "through atomics, so results vary at rounding level from run to run.",
     {true, false, true, false},
     true,
     true,
     {256, 16, 4},
     {64, 4, 2},
     true,
     1},
};

constexpr const NbodyVariantRow& variantRow(NbodyVariant v) {
    for (const auto& row : kNbodyVariants)
        if (row.variant == v) return row;
    return kNbodyVariants[0];
}
constexpr NbodyTunables tunablesOf(NbodyVariant v) {
    return variantRow(v).tunables;
}
// The force methods with a class of their own (Tree, Pairs): they compute in float only, and
// split over devices or ranks each computes a share's part of every body's acceleration, which
// the devices add up (NbodyMultiDevice, NbodyMpiSimulation); auto weighs them on one device only.
constexpr bool runsOnOneDeviceInFloat(NbodyVariant v) {
    return variantRow(v).oneDeviceInFloat;
}
// Unrolled, vectorized, async-copy and small-n: compile-time tiles, an unrolled inner loop and
// several bodies per work-item (the unroll and bodies-per-item fields mean something).
constexpr bool usesTileBlocking(NbodyVariant v) {
    return tunablesOf(v).unroll;
}

// The variant a new simulation starts with: small-n on GPUs (it splits bodies only when N is too
// small to fill the device, so it is the best all-round choice), vectorized on CPUs (PoCL runs the
// float4 variant fastest).
constexpr NbodyVariant defaultNbodyVariant(bool gpu) {
    return gpu ? NbodyVariant::SmallN : NbodyVariant::Vectorized;
}

const std::vector<NbodyVariant>& allNbodyVariants();  // nbody_force.cl's kernels (a define)
std::vector<NbodyVariant> nbodyVariantChoices();      // every row, in the table's order
std::string nbodyVariantChoiceText();                 // "auto|naive|...|pairs"
std::vector<NbodyVariant> autoCandidates();           // the rows `auto` considers
const char* variantName(NbodyVariant v);              // "naive", "tiled", "unrolled", ...
const char* variantDescription(NbodyVariant v);       // one sentence for tooltips
const char* variantDefine(NbodyVariant v);  // the kernel's -D switch ("VARIANT_TILED"; "" for Auto)
std::vector<std::string> variantNames();    // of allNbodyVariants()
NbodyVariant parseVariant(const std::string& name);  // any row's name; throws clviz::Error
                                                     // listing valid names

const char* integratorName(NbodyIntegrator i);  // "taylor", "leapfrog"
const char* integratorDescription(NbodyIntegrator i);
NbodyIntegrator parseIntegrator(const std::string& name);  // throws clviz::Error

// How the force kernel is launched. 0 in a field means "the default for this device, variant
// and N" (the auto-tuned value once autotune() has run). effectiveKernelConfig() resolves them.
// A new simulation starts with defaultNbodyVariant().
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
