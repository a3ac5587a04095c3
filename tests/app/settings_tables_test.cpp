// The settings tables (app.*, the N-body demo's, the image lab's): every row documented, keys
// unique, --help-settings and the unknown-key messages list every key, every image-lab key
// applies, and bad values are refused naming what is accepted. (The N-body demo's keys are
// applied one by one in tests/app/nbody/demo_gl_test.cpp: they need a GL context.)
#include <gtest/gtest.h>

#include <cctype>
#include <map>
#include <set>

#include "app/app_settings.hpp"
#include "app/cli.hpp"
#include "app/demo_registry.hpp"
#include "app/image/settings.hpp"
#include "app/nbody/demo.hpp"
#include "app/settings_help.hpp"
#include "tests/support/error_message.hpp"

using clviz::test::errorOf;

using namespace clviz;

namespace {

struct Owner {
    const char* name;
    std::vector<SettingDoc> docs;
    const char* prefix;
};

std::vector<Owner> owners() {
    return {{"app", appSettings().docs(), "app."},
            {"nbody", NbodyDemo::settings().docs(), ""},
            {"image", imageLabSettingDocs(), ""}};
}

// The words and numbers in a row's accepted values ("on|off" -> on, off), lower case.
std::vector<std::string> valueWords(const std::string& values) {
    std::vector<std::string> words;
    std::string word;
    for (char c : values + " ") {
        if (std::isalnum(static_cast<unsigned char>(c)) || c == '-') {
            word += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        } else if (!word.empty()) {
            words.push_back(word);
            word.clear();
        }
    }
    return words;
}

std::string lower(std::string s) {
    for (char& c : s)
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return s;
}

}  // namespace

TEST(SettingsTables, EveryRowIsDocumentedAndEveryKeyIsUnique) {
    for (const Owner& o : owners()) {
        std::set<std::string> seen;
        for (const SettingDoc& d : o.docs) {
            EXPECT_FALSE(d.values.empty()) << o.name << " " << d.key;
            EXPECT_FALSE(d.help.empty()) << o.name << " " << d.key;
            EXPECT_TRUE(seen.insert(d.key).second) << o.name << " has " << d.key << " twice";
            for (const std::string& a : d.aliases)
                EXPECT_TRUE(seen.insert(a).second) << o.name << " has " << a << " twice";
        }
    }
}

TEST(SettingsTables, HelpSettingsAndTheReadmeDumpListEveryKey) {
    const std::string text = allSettingsHelp(SettingsHelpFormat::Text);
    const std::string md = allSettingsHelp(SettingsHelpFormat::Markdown);
    for (const Owner& o : owners())
        for (const SettingDoc& d : o.docs) {
            const std::string key = o.prefix + d.key;
            EXPECT_NE(text.find("  " + key + "="), std::string::npos) << key;
            EXPECT_NE(md.find("| `" + key + "`"), std::string::npos) << key;
        }
    EXPECT_NE(text.find("N-body"), std::string::npos);
    EXPECT_NE(md.find("#### Image lab"), std::string::npos);
    // --help lists the app keys from the same table.
    for (const SettingDoc& d : appSettings().docs())
        EXPECT_NE(cliUsage().find("  app." + d.key + "="), std::string::npos) << d.key;
}

TEST(SettingsTables, HelpSettingsIsAModeOfTheCommandLine) {
    EXPECT_EQ(parseCli({"--help-settings"}).mode, AppOptions::Mode::HelpSettings);
    EXPECT_FALSE(parseCli({"--help-settings"}).helpSettingsMarkdown);
    EXPECT_TRUE(parseCli({"--help-settings=markdown"}).helpSettingsMarkdown);
    EXPECT_FALSE(parseCli({"--help-settings=text"}).helpSettingsMarkdown);
    EXPECT_THROW(parseCli({"--help-settings=html"}), UsageError);
}

TEST(SettingsTables, AnUnknownImageKeyIsAnsweredWithEveryKey) {
    ImageLabControls c;
    const std::string why = errorOf([&] { applyImageSetting(c, "warp", "1"); });
    for (const SettingDoc& d : imageLabSettingDocs())
        EXPECT_NE(why.find(d.key), std::string::npos) << d.key << " missing from: " << why;
}

TEST(SettingsTables, EveryImageLabKeyApplies) {
    // One good value per key; a key added to the table without one here fails below.
    const std::map<std::string, std::string> good = {
        {"angle", "15"},
        {"spin", "on"},
        {"rotate-variant", "image"},
        {"sampling", "bilinear"},
        {"expand", "on"},
        {"fit", "crop"},
        {"background", "#102030"},
        {"filters", "median3,rotate"},
        {"equalize-mode", "luma"},
        {"histogram", "result"},
        {"histogram-variant", "local-atomics"},
        {"histogram-scale", "log"},
        {"view", "split"},
        {"split", "0.25"},
        {"zoom", "2"},
        {"magnification", "nearest"},
        {"interop", "host-copy"},
        {"continuous", "off"},
    };
    for (const SettingDoc& d : imageSettings().docs()) {
        const auto it = good.find(d.key);
        ASSERT_NE(it, good.end()) << "no good value for " << d.key << " in this test";
        ImageLabControls c;
        EXPECT_NO_THROW(applyImageSetting(c, d.key, it->second)) << d.key << "=" << it->second;
        for (const std::string& alias : d.aliases)
            EXPECT_NO_THROW(applyImageSetting(c, alias, it->second)) << alias;
    }
}

TEST(SettingsTables, BadImageLabValuesAreRefusedNamingWhatIsAccepted) {
    for (const SettingDoc& d : imageSettings().docs()) {
        ImageLabControls c;
        const std::string why = lower(errorOf([&] { applyImageSetting(c, d.key, "%bogus%"); }));
        ASSERT_FALSE(why.empty()) << d.key << " took %bogus%";
        bool named = false;
        for (const std::string& w : valueWords(d.values))
            named = named || why.find(w) != std::string::npos;
        EXPECT_TRUE(named) << d.key << " (" << d.values << ") said: " << why;
    }
}
