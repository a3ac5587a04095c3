// The settings-table machinery (common/settings_table.hpp): look-up with aliases, the help and
// Markdown written from the rows, and the value checks' messages.
#include <gtest/gtest.h>

#include <functional>

#include "common/settings_table.hpp"
#include "tests/support/error_message.hpp"

using namespace clviz;
using clviz::test::errorOf;

namespace {

struct Lamp {
    bool on = false;
    long long level = 0;
};

const SettingTable<Lamp>& lampSettings() {
    static const SettingTable<Lamp> table = {
        {{"on", "on|off", "Switches the lamp", {"lit"}},
         [](Lamp& l, const std::string& v) { l.on = settingOnOff("on", v); }},
        {{"level", "0..10", "Brightness"},
         [](Lamp& l, const std::string& v) { l.level = settingInteger("level", v, 0, 10); }},
    };
    return table;
}

}  // namespace

TEST(SettingTable, AppliesKeysAndAliasesAndSaysWhenItHasNoSuchKey) {
    Lamp lamp;
    EXPECT_TRUE(lampSettings().apply(lamp, "on", "yes"));
    EXPECT_TRUE(lamp.on);
    EXPECT_TRUE(lampSettings().apply(lamp, "lit", "off"));
    EXPECT_FALSE(lamp.on);
    EXPECT_TRUE(lampSettings().apply(lamp, "level", "7"));
    EXPECT_EQ(lamp.level, 7);
    EXPECT_FALSE(lampSettings().apply(lamp, "colour", "red"));
    EXPECT_TRUE(lampSettings().has("lit"));
    EXPECT_FALSE(lampSettings().has("Level"));
    EXPECT_THROW(lampSettings().apply(lamp, "level", "11"), Error);
    EXPECT_EQ(lamp.level, 7);
}

TEST(SettingTable, HelpAndMarkdownListEveryRow) {
    const auto& docs = lampSettings().docs();
    EXPECT_EQ(settingKeyList(docs), "on, level");
    EXPECT_EQ(settingKeyList(docs, "app."), "app.on, app.level");
    EXPECT_EQ(settingSummary(docs), "on=on|off, level=0..10");
    const std::string text = settingHelpText(docs);
    EXPECT_NE(text.find("  on=on|off"), std::string::npos) << text;
    EXPECT_NE(text.find("Switches the lamp (also: lit)"), std::string::npos) << text;
    EXPECT_NE(text.find("  level=0..10"), std::string::npos) << text;
    EXPECT_EQ(settingMarkdown(docs, "lamp."),
              "| Key | Values | What it does |\n"
              "|---|---|---|\n"
              "| `lamp.on`, `lamp.lit` | `on\\|off` | Switches the lamp |\n"
              "| `lamp.level` | `0..10` | Brightness |\n");
}

TEST(SettingTable, ValueChecksNameTheKeyAndWhatItAccepts) {
    EXPECT_EQ(settingInteger("n", "12", 1, 100), 12);
    EXPECT_EQ(errorOf([] { settingInteger("n", "12abc", 1, 100); }),
              "n expects an integer, got '12abc'");
    EXPECT_EQ(errorOf([] { settingInteger("n", "0", 1, 100); }), "n must be in 1 .. 100, got 0");
    EXPECT_EQ(errorOf([] { settingInteger("n", "99999999999999999999", 1, 100); }),
              "n must be in 1 .. 100, got 99999999999999999999");
    EXPECT_DOUBLE_EQ(settingNumber("dt", "0.5", 0, 10, true), 0.5);
    EXPECT_EQ(errorOf([] { settingNumber("dt", "0", 0, 10, true); }),
              "dt must be in (0, 10], got 0");
    EXPECT_EQ(errorOf([] { settingNumber("eps", "-0.1", 0, 0.5); }),
              "eps must be in [0, 0.5], got -0.1");
    EXPECT_EQ(errorOf([] { settingNumber("dt", "nan", 0, 10); }), "dt expects a number, got 'nan'");
    EXPECT_TRUE(settingOnOff("pause", "ON"));
    EXPECT_EQ(errorOf([] { settingOnOff("pause", "maybe"); }),
              "pause expects on or off, got 'maybe'");
    EXPECT_EQ(settingChoice("precision", "double", {"float", "double"}), 1u);
    EXPECT_EQ(errorOf([] {
                  settingChoice("precision", "half", {"float", "double"});
              }),
              "precision expects float or double, got 'half'");
}
