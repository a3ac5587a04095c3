// The Simulation panel's fp64 box (issue 27): enabled where double precision runs; disabled, with
// the reason as its tooltip, on a device without fp64 and for the variants that compute in float
// only. No device needed: the panel asks fp64Unavailable with the device's answer.
#include "app/nbody/fp64_box.hpp"

#include <gtest/gtest.h>

namespace clviz {
namespace {

TEST(Fp64Box, EnabledWhereDoublePrecisionRuns) {
    for (NbodyVariant v : allNbodyVariants())
        EXPECT_EQ(fp64Unavailable("Some GPU", true, v), "") << variantName(v);
}

TEST(Fp64Box, DisabledOnADeviceWithoutFp64ForEveryVariant) {
    for (NbodyVariant v : {NbodyVariant::Tiled, NbodyVariant::Tree, NbodyVariant::Pairs}) {
        const std::string why = fp64Unavailable("Mali-G78", false, v);
        EXPECT_EQ(why, "Mali-G78 has no fp64 (cl_khr_fp64): the simulation runs in float")
            << variantName(v);
    }
}

TEST(Fp64Box, DisabledForTheVariantsThatComputeInFloatOnly) {
    EXPECT_EQ(fp64Unavailable("Some GPU", true, NbodyVariant::Tree),
              "the tree variant computes in float only");
    EXPECT_EQ(fp64Unavailable("Some GPU", true, NbodyVariant::Pairs),
              "the pairs variant computes in float only");
}

}  // namespace
}  // namespace clviz
