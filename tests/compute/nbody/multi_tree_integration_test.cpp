// Who integrates the split tree (compute/nbody/multi/tree_integration.hpp): replicated only where
// every device is identical to the first, the owners otherwise, with the first difference named.
// No device needed: identities are made up here (NbodyMultiDevice's own choice is in
// multi_device_test.cpp).
#include <gtest/gtest.h>

#include "common/error.hpp"
#include "compute/nbody/multi/tree_integration.hpp"

namespace clviz {
namespace {

NbodyDeviceIdentity h100() {
    return {"NVIDIA H100 80GB HBM3", "NVIDIA Corporation", "OpenCL 3.0 CUDA", "580.159.04",
            "nbody_integrate.cl [] #42; nbody_tree.cl [-DWG=128] #7; "};
}

TEST(TreeIntegration, IdenticalDevicesEachMoveEveryBody) {
    for (NbodyTreeIntegration mode :
         {NbodyTreeIntegration::Auto, NbodyTreeIntegration::Replicated}) {
        const auto c = chooseTreeIntegration(mode, {h100(), h100(), h100(), h100()}, true);
        EXPECT_TRUE(c.replicated) << c.why;
        EXPECT_NE(c.why.find("4 identical devices"), std::string::npos) << c.why;
    }
}

TEST(TreeIntegration, MixedDevicesFallBackToTheOwnersNamingTheDifference) {
    struct Change {
        std::string NbodyDeviceIdentity::*field;
        const char* what;
    };
    for (const Change& ch : {Change{&NbodyDeviceIdentity::name, "name"},
                             Change{&NbodyDeviceIdentity::vendor, "vendor"},
                             Change{&NbodyDeviceIdentity::version, "version"},
                             Change{&NbodyDeviceIdentity::driverVersion, "driver version"},
                             Change{&NbodyDeviceIdentity::programs, "the integration programs"}})
        for (NbodyTreeIntegration mode :
             {NbodyTreeIntegration::Auto, NbodyTreeIntegration::Replicated}) {
            NbodyDeviceIdentity other = h100();
            other.*ch.field += " (other)";
            // The odd one out last, among three: every device is compared, not just the second.
            const auto c = chooseTreeIntegration(mode, {h100(), h100(), other}, true);
            EXPECT_FALSE(c.replicated) << ch.what;
            EXPECT_NE(c.why.find("device 2 differs from device 0 in " + std::string(ch.what)),
                      std::string::npos)
                << c.why;
        }
}

TEST(TreeIntegration, OwnersWhenAskedForOneDeviceOrAnotherVariant) {
    EXPECT_FALSE(
        chooseTreeIntegration(NbodyTreeIntegration::Owners, {h100(), h100()}, true).replicated);
    EXPECT_FALSE(chooseTreeIntegration(NbodyTreeIntegration::Auto, {h100()}, true).replicated);
    EXPECT_FALSE(chooseTreeIntegration(NbodyTreeIntegration::Auto, {}, true).replicated);
    // Pairs and all-pairs: no device holds every acceleration after the exchange.
    EXPECT_FALSE(chooseTreeIntegration(NbodyTreeIntegration::Replicated, {h100(), h100()}, false)
                     .replicated);
}

TEST(TreeIntegration, NamesParseBackAndOthersAreRefused) {
    for (NbodyTreeIntegration m : {NbodyTreeIntegration::Auto, NbodyTreeIntegration::Owners,
                                   NbodyTreeIntegration::Replicated})
        EXPECT_EQ(parseTreeIntegration(treeIntegrationName(m)), m);
    for (const char* bad : {"", "Owners", "replicate", "all"})
        EXPECT_THROW(parseTreeIntegration(bad), Error) << bad;
    try {
        parseTreeIntegration("x");
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find(treeIntegrationChoiceText()), std::string::npos);
    }
}

}  // namespace
}  // namespace clviz
