#include "compute/nbody/variants.hpp"

#include "common/error.hpp"
#include "common/quoted_path.hpp"

namespace clviz {

const std::vector<NbodyVariant>& allNbodyVariants() {
    static const std::vector<NbodyVariant> all = [] {
        std::vector<NbodyVariant> v;
        for (const auto& row : kNbodyVariants)
            if (*row.define) v.push_back(row.variant);
        return v;
    }();
    return all;
}
std::vector<NbodyVariant> nbodyVariantChoices() {
    std::vector<NbodyVariant> v;
    for (const auto& row : kNbodyVariants)
        v.push_back(row.variant);
    return v;
}
std::string nbodyVariantChoiceText() {
    std::string text;
    for (const auto& row : kNbodyVariants)
        text += std::string(text.empty() ? "" : "|") + row.name;
    return text;
}
std::vector<NbodyVariant> autoCandidates() {
    std::vector<NbodyVariant> v;
    for (const auto& row : kNbodyVariants)
        if (row.autoConsiders) v.push_back(row.variant);
    return v;
}
const char* variantName(NbodyVariant v) {
    return variantRow(v).name;
}
const char* variantDescription(NbodyVariant v) {
    return variantRow(v).description;
}
const char* variantDefine(NbodyVariant v) {
    return variantRow(v).define;
}
std::vector<std::string> variantNames() {
    std::vector<std::string> names;
    for (NbodyVariant v : allNbodyVariants())
        names.emplace_back(variantName(v));
    return names;
}
NbodyVariant parseVariant(const std::string& name) {
    std::string valid;
    for (const auto& row : kNbodyVariants) {
        if (name == row.name) return row.variant;
        valid += std::string(valid.empty() ? "" : ", ") + row.name;
    }
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
