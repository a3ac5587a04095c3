#include "compute/nbody/variants.hpp"

#include "common/error.hpp"
#include "common/quoted_path.hpp"

namespace clviz {

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
     "Tiles of bodies staged in local memory between barriers; plain inner loop (the course "
     "baseline)."},
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

const VariantInfo kPairs = {
    NbodyVariant::Pairs, "pairs", "",
    "Direct sum with each pair once (Newton's third law): one rsqrt and one r^-3 serve both "
    "bodies, a third less arithmetic per interaction. Float only, one device; the sums meet "
    "through atomics, so results vary at rounding level from run to run."};

const VariantInfo& info(NbodyVariant v) {
    for (const auto& i : kVariants)
        if (i.variant == v) return i;
    return v == NbodyVariant::Tree ? kTree : v == NbodyVariant::Pairs ? kPairs : kAuto;
}

}  // namespace

const std::vector<NbodyVariant>& allNbodyVariants() {
    static const std::vector<NbodyVariant> all = [] {
        std::vector<NbodyVariant> v;
        for (const auto& i : kVariants)
            v.push_back(i.variant);
        return v;
    }();
    return all;
}
const char* variantName(NbodyVariant v) {
    return info(v).name;
}
const char* variantDescription(NbodyVariant v) {
    return info(v).description;
}
const char* variantDefine(NbodyVariant v) {
    return info(v).define;
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
    if (name == kPairs.name) return NbodyVariant::Pairs;
    valid += std::string(", ") + kAuto.name + ", " + kTree.name + ", " + kPairs.name;
    throw Error("unknown N-body kernel variant " + quotedPath(name) + " (valid: " + valid + ")");
}

const char* integratorName(NbodyIntegrator i) {
    return i == NbodyIntegrator::Taylor ? "taylor" : "leapfrog";
}
const char* integratorDescription(NbodyIntegrator i) {
    return i == NbodyIntegrator::Taylor
               ? "The course baseline's update: x += v dt + a dt^2/2, v += a dt (energy drifts)."
               : "Kick-drift-kick leapfrog: symplectic, energy error stays bounded.";
}
NbodyIntegrator parseIntegrator(const std::string& name) {
    if (name == "taylor") return NbodyIntegrator::Taylor;
    if (name == "leapfrog") return NbodyIntegrator::Leapfrog;
    throw Error("unknown integrator " + quotedPath(name) + " (valid: taylor, leapfrog)");
}

std::string describe(const NbodyKernelConfig& c) {
    std::string s = std::string(variantName(c.variant)) + " wg=" + std::to_string(c.workGroupSize);
    if (usesTileBlocking(c.variant))
        s += " unroll=" + std::to_string(c.unroll) + " bpi=" + std::to_string(c.bodiesPerItem);
    else if (tunablesOf(c.variant).bodiesPerItem)
        s += " bpi=" + std::to_string(c.bodiesPerItem);
    if (tunablesOf(c.variant).split) s += " split=" + std::to_string(c.split);
    return s;
}

}  // namespace clviz
