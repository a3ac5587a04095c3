// The spectral lab's setting language (Demo::set / --set): every key, its effect on the controls,
// and bad values refused with a message that names what is accepted, leaving the controls as
// they were.
#include <gtest/gtest.h>

#include "app/spectral/settings.hpp"
#include "tests/support/error_message.hpp"

using clviz::test::errorOf;

using namespace clviz;

namespace {

void ok(SpectralControls& c, const std::string& key, const std::string& value) {
    EXPECT_NO_THROW(applySpectralSetting(c, key, value)) << key << "=" << value;
}

void refused(const std::string& key, const std::string& value, const std::string& fragment) {
    SpectralControls c;
    ok(c, "components", "7");
    const std::string why = errorOf([&] { applySpectralSetting(c, key, value); });
    EXPECT_NE(why.find(fragment), std::string::npos) << key << "=" << value << ": " << why;
    EXPECT_EQ(c.components, 7);
    EXPECT_EQ(c.noise, NoiseEstimate::Diff);
}

}  // namespace

TEST(SpectralSettings, EveryKeyChangesItsControl) {
    SpectralControls c;
    ok(c, "noise", "median3");
    EXPECT_EQ(c.noise, NoiseEstimate::Median3);
    ok(c, "noise", "MEAN3");
    EXPECT_EQ(c.noise, NoiseEstimate::Mean3);
    ok(c, "components", "20");
    EXPECT_EQ(c.components, 20);
    ok(c, "keep", "0");
    EXPECT_EQ(c.keep, 0);
    ok(c, "view", "mnf");
    EXPECT_EQ(c.view, SpectralViewMode::MnfRgb);
    ok(c, "band", "199");
    EXPECT_EQ(c.band, 199);
    ok(c, "rgb", "29, 19,9");
    EXPECT_EQ(c.rgbBands, (std::array<int, 3>{29, 19, 9}));
    ok(c, "mnf-rgb", "2,1,0");
    EXPECT_EQ(c.mnfRgb, (std::array<int, 3>{2, 1, 0}));
    ok(c, "noise-rect", "85,117,37,20");
    EXPECT_EQ(c.noiseRect, (CubeRect{85, 117, 37, 20}));
    ok(c, "noise-rect", "all");
    EXPECT_EQ(c.noiseRect, CubeRect{});
}

TEST(SpectralSettings, BadValuesAreRefusedAndChangeNothing) {
    refused("noise", "gauss", "diff, mean3 or median3");
    refused("components", "0", "components");
    refused("components", "5000", "components");
    refused("keep", "-1", "keep");
    refused("view", "pca", "band, rgb or mnf");
    refused("rgb", "1,2", "three numbers");
    refused("mnf-rgb", "1,2,x", "mnf-rgb");
    refused("noise-rect", "1,2,3", "all or X,Y,W,H");
    refused("noise-rect", "1,2,0,4", "noise-rect");
    refused("bogus", "1", "unknown setting 'bogus'");
}

TEST(SpectralSettings, DocsNameTheDemoKeysFirst) {
    const std::vector<SettingDoc> docs = spectralLabSettingDocs();
    ASSERT_GE(docs.size(), 3u);
    EXPECT_EQ(docs[0].key, "cube");
    EXPECT_EQ(docs[1].key, "save");
    EXPECT_EQ(docs[2].key, "noise");
}
