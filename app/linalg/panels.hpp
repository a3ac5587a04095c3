#pragma once
// The linear-algebra lab's ImGui windows besides its controls: the roofline (the measured
// ceilings and every timed kernel at its intensity), GFLOP/s against size, and the reduction's
// bandwidth against size. Each draws what it is given; none touches OpenCL or GL.
#include <map>
#include <string>
#include <vector>

#include "app/linalg/reduce_lab.hpp"
#include "common/roofline.hpp"
#include "compute/roofline/ceiling_probes.hpp"

namespace clviz {

// One kernel run on the roofline chart; `group` picks its colour and legend heading ("GEMM",
// "reduction", "N-body", "image lab").
struct RooflineMark {
    std::string group;
    RooflinePoint run;
    bool current = false;  // the lab's selected variant: drawn larger
};

void drawRooflinePanel(bool* open, const DeviceCeilings& ceilings,
                       const std::vector<RooflineMark>& marks);

// GFLOP/s against the cube root of M·N·K, one line per variant (id -> size -> GFLOP/s).
void drawSizePanel(bool* open, const std::map<std::string, std::map<double, double>>& bySize,
                   const std::string& current, double fp32Ceiling);

void drawReductionPanel(bool* open, const std::vector<ReducePoint>& points,
                        const std::string& variantId, double copyBandwidthGBs,
                        std::string* variantChoice);

// The colour of a mark's group.
ImU32 markColour(const std::string& group);

}  // namespace clviz
