// The linear-algebra lab's settings: every key, the variant ids from the compute layer's table
// (with and without their prefix), sizes and tile parameters in range, and refusals that name
// what is accepted and leave the controls unchanged.
#include "app/linalg/settings.hpp"

#include <gtest/gtest.h>

#include "tests/support/error_message.hpp"

using clviz::test::errorOf;

namespace clviz {
namespace {

TEST(LinalgSettings, VariantsByIdWithOrWithoutPrefix) {
    LinalgLabControls c;
    EXPECT_NO_THROW(applyLinalgSetting(c, "variant", "gemm-tile"));
    EXPECT_EQ(c.variant, GemmVariant::LocalTile);
    EXPECT_NO_THROW(applyLinalgSetting(c, "variant", "naive"));
    EXPECT_EQ(c.variant, GemmVariant::Naive);
    EXPECT_NO_THROW(applyLinalgSetting(c, "variant", " GEMM-TF32 "));
    EXPECT_EQ(c.variant, GemmVariant::TensorTf32);
    const std::string why = errorOf([&] { applyLinalgSetting(c, "variant", "strassen"); });
    EXPECT_NE(why.find("unknown GEMM variant 'strassen'"), std::string::npos) << why;
    EXPECT_NE(why.find("gemm-regblock"), std::string::npos) << why;
    EXPECT_EQ(c.variant, GemmVariant::TensorTf32);
    // Every id of the table is accepted and listed in the row's values.
    for (int v = 0; v < kGemmVariantCount; ++v) {
        const std::string id = gemmVariantInfo(GemmVariant(v)).id;
        EXPECT_NO_THROW(applyLinalgSetting(c, "variant", id)) << id;
        EXPECT_EQ(c.variant, GemmVariant(v));
        EXPECT_NE(gemmVariantChoices().find(id), std::string::npos);
    }
}

TEST(LinalgSettings, ShapeAndTransposes) {
    LinalgLabControls c;
    EXPECT_EQ(c.shape.m, 512);  // the CI box runs the default
    EXPECT_NO_THROW(applyLinalgSetting(c, "size", "97"));
    EXPECT_EQ(c.shape.m, 97);
    EXPECT_EQ(c.shape.n, 97);
    EXPECT_EQ(c.shape.k, 97);
    EXPECT_NO_THROW(applyLinalgSetting(c, "m", "1"));
    EXPECT_NO_THROW(applyLinalgSetting(c, "n", "4096"));
    EXPECT_NO_THROW(applyLinalgSetting(c, "k", "13"));
    EXPECT_EQ(c.shape.m, 1);
    EXPECT_EQ(c.shape.n, 4096);
    EXPECT_EQ(c.shape.k, 13);
    for (const char* bad : {"0", "4097", "-3", "12x", "", "1e3"}) {
        const std::string why = errorOf([&] { applyLinalgSetting(c, "k", bad); });
        EXPECT_NE(why.find("1 to 4096"), std::string::npos) << bad << ": " << why;
    }
    EXPECT_EQ(c.shape.k, 13);
    EXPECT_NO_THROW(applyLinalgSetting(c, "trans-a", "on"));
    EXPECT_NO_THROW(applyLinalgSetting(c, "trans-b", "on"));
    EXPECT_TRUE(c.shape.transA);
    EXPECT_TRUE(c.shape.transB);
    EXPECT_NE(errorOf([&] { applyLinalgSetting(c, "trans-a", "maybe"); }).find("on or off"),
              std::string::npos);
}

TEST(LinalgSettings, TileParametersAndSwitches) {
    LinalgLabControls c;
    EXPECT_NO_THROW(applyLinalgSetting(c, "tile", "16"));
    EXPECT_NO_THROW(applyLinalgSetting(c, "block-m", "64"));
    EXPECT_NO_THROW(applyLinalgSetting(c, "block-n", "32"));
    EXPECT_NO_THROW(applyLinalgSetting(c, "block-k", "8"));
    EXPECT_NO_THROW(applyLinalgSetting(c, "thread-m", "4"));
    EXPECT_NO_THROW(applyLinalgSetting(c, "thread-n", "2"));
    EXPECT_EQ(c.tuning.tile, 16);
    EXPECT_EQ(c.tuning.blockM, 64);
    EXPECT_EQ(c.tuning.blockN, 32);
    EXPECT_EQ(c.tuning.blockK, 8);
    EXPECT_EQ(c.tuning.threadM, 4);
    EXPECT_EQ(c.tuning.threadN, 2);
    EXPECT_NO_THROW(applyLinalgSetting(c, "tile", "0"));  // back to the default
    EXPECT_EQ(c.tuning.tile, 0);
    EXPECT_NE(errorOf([&] { applyLinalgSetting(c, "tile", "257"); }).find("0 (the default)"),
              std::string::npos);
    EXPECT_NO_THROW(applyLinalgSetting(c, "reduce-variant", "onepass"));
    EXPECT_EQ(c.reduceVariant, ReduceVariant::OnePass);
    EXPECT_NO_THROW(applyLinalgSetting(c, "reduce-variant", "reduce-course"));
    EXPECT_EQ(c.reduceVariant, ReduceVariant::CourseUint4);
    EXPECT_NE(errorOf([&] { applyLinalgSetting(c, "reduce-variant", "x"); }).find("reduce-tree"),
              std::string::npos);
    for (const char* key : {"error-overlay", "continuous", "all-variants", "sweep"}) {
        EXPECT_NO_THROW(applyLinalgSetting(c, key, "off")) << key;
        EXPECT_NE(errorOf([&] { applyLinalgSetting(c, key, "2"); }).find("on or off"),
                  std::string::npos)
            << key;
    }
    EXPECT_FALSE(c.errorOverlay || c.continuous || c.allVariants || c.sweep);
}

TEST(LinalgSettings, UnknownKeysListTheKeys) {
    LinalgLabControls c;
    const std::string why = errorOf([&] { applyLinalgSetting(c, "colour", "red"); });
    EXPECT_NE(why.find("unknown setting 'colour'"), std::string::npos) << why;
    EXPECT_NE(why.find("variant"), std::string::npos);
    EXPECT_NE(why.find("trans-b"), std::string::npos);
    EXPECT_EQ(linalgLabSettingDocs().size(), linalgSettings().docs().size());
}

}  // namespace
}  // namespace clviz
