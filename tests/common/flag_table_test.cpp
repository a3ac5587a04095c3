// The flag table: one row per flag drives parsing, order, errors and --help.
#include "common/flag_table.hpp"

#include <gtest/gtest.h>

using namespace clviz;

namespace {

struct Seen {
    std::vector<std::string> calls;
    std::vector<FlagRow> rows() {
        auto log = [this](const std::string& name) {
            return [this, name](const std::string& v) { calls.push_back(name + "=" + v); };
        };
        return {{"-a,--alpha", FlagRow::Takes::Value, "N", "alpha help [3]", "One", log("alpha")},
                {"--beta", FlagRow::Takes::Value, "X", "beta help", "Two", log("beta")},
                {"--on", FlagRow::Takes::Nothing, "", "a switch", "Two", log("on")},
                {"--fmt", FlagRow::Takes::InlineValue, "F", "inline only", "Two", log("fmt")}};
    }
};

std::string error(const std::vector<std::string>& args) {
    Seen s;
    try {
        parseFlagTable(s.rows(), args);
    } catch (const UsageError& e) {
        return e.what();
    }
    return "";
}

}  // namespace

TEST(FlagTable, AppliesInCommandLineOrderEveryOccurrence) {
    Seen s;
    parseFlagTable(s.rows(), {"--beta", "x", "-a", "1", "--on", "--alpha=2", "--beta=-7", "-a5",
                              "--fmt", "--fmt=md"});
    EXPECT_EQ(s.calls, (std::vector<std::string>{"beta=x", "alpha=1", "on=", "alpha=2", "beta=-7",
                                                 "alpha=5", "fmt=", "fmt=md"}));
}

TEST(FlagTable, ErrorsSayWhichFlagAndWhatIsWrong) {
    EXPECT_EQ(error({"--gamma"}), "unknown option '--gamma' (see --help)");
    EXPECT_EQ(error({"word"}), "unexpected argument 'word' (see --help)");
    EXPECT_EQ(error({"--fmt", "md"}), "unexpected argument 'md' (see --help)");
    EXPECT_EQ(error({"-a"}), "-a needs a value (see --help)");
    EXPECT_EQ(error({"--beta="}), "--beta needs a non-empty value");
    EXPECT_EQ(error({"--beta", ""}), "--beta needs a non-empty value");
    EXPECT_EQ(error({"--on=yes"}), "--on takes no value");
    EXPECT_EQ(error({"--ga\x1b"}), "unknown option '--ga\\x1B' (see --help)");
}

TEST(FlagTable, ApplyErrorsPassThrough) {
    std::vector<FlagRow> rows = {{"--n", FlagRow::Takes::Value, "N", "", "G",
                                  [](const std::string& v) { throw UsageError("bad " + v); }}};
    try {
        parseFlagTable(rows, {"--n", "3"});
        FAIL();
    } catch (const UsageError& e) {
        EXPECT_STREQ(e.what(), "bad 3");
    }
}

TEST(FlagTable, HelpListsEveryRowUnderItsGroup) {
    Seen s;
    const std::string help = flagTableHelp(s.rows(), "Usage: t [options]\n", "footer text\n");
    EXPECT_EQ(help.find("Usage: t [options]"), 0u);
    for (const char* text : {"-a,--alpha N", "alpha help [3]", "--beta X", "--on", "--fmt[=F]",
                             "One:", "Two:", "footer text"})
        EXPECT_NE(help.find(text), std::string::npos) << text;
    EXPECT_LT(help.find("One:"), help.find("Two:"));
}
