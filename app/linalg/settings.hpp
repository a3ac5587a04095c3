#pragma once
// What the user steers in the linear-algebra lab: the GEMM variant, its shape (M, N, K and the
// transposes), its tile parameters, the reduction variant and what the panels show; and the
// `--set key=value` / Demo::set language over them. Pure (no GL, no CL calls), so every key and
// every bad value is unit-tested; the panels edit the same struct.
#include <string>
#include <vector>

#include "common/settings_table.hpp"
#include "compute/linalg/gemm.hpp"
#include "compute/linalg/reduction.hpp"

namespace clviz {

struct LinalgLabControls {
    GemmVariant variant = GemmVariant::RegisterBlocked;
    GemmShape shape{512, 512, 512, false, false};
    GemmTuning tuning;  // zeros: the variant's defaults
    ReduceVariant reduceVariant = ReduceVariant::ConflictFree;
    bool errorOverlay = true;  // the error against the CPU reference drawn over C
    bool continuous = true;    // run the GEMM every frame (live timings) or only after a change
    bool allVariants = true;   // time every variant at this shape for the roofline, one a frame
    bool sweep = true;         // time the variant at smaller powers of two for the size plot
};

// Largest M, N or K the lab accepts: matrices of 64 MiB each, and its CPU reference (which it
// computes only up to kMaxReferenceMacs) bounded.
inline constexpr int kLinalgMaxDimension = 4096;
// Multiply-adds above which the lab computes no CPU reference (2048³: seconds on one core).
inline constexpr double kMaxReferenceMacs = 2048.0 * 2048.0 * 2048.0;

const SettingTable<LinalgLabControls>& linalgSettings();
std::vector<SettingDoc> linalgLabSettingDocs();
// Throws clviz::Error naming the valid values when refused; `c` is unchanged then.
void applyLinalgSetting(LinalgLabControls& c, const std::string& key, const std::string& value);

// "gemm-naive|gemm-tile|..." and the reduction's, from the compute layer's variant tables.
std::string gemmVariantChoices();
std::string reduceVariantChoices();

}  // namespace clviz
