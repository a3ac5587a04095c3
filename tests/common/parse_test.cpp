// The shared parsers every flag and setting reads user text with (common/parse.hpp).
#include <gtest/gtest.h>

#include <limits>

#include "common/parse.hpp"

using namespace clviz;

TEST(Parse, OnOffTakesEveryUsualSpellingInAnyCase) {
    for (const char* on : {"on", "ON", "true", "1", "yes", " Yes\t"})
        EXPECT_EQ(parseOnOff(on), true) << on;
    for (const char* off : {"off", "Off", "false", "0", "no", "NO "})
        EXPECT_EQ(parseOnOff(off), false) << off;
    for (const char* bad : {"", "2", "maybe", "onn", "o n"})
        EXPECT_FALSE(parseOnOff(bad)) << bad;
}

TEST(Parse, IntegersAreWholeDecimalNumbers) {
    EXPECT_EQ(parseInteger("42"), 42);
    EXPECT_EQ(parseInteger("-3"), -3);
    EXPECT_EQ(parseInteger("+7"), 7);
    for (const char* bad :
         {"", " ", " 12", "12 ", "12x", "1.5", "1e3", "0x10", "+", "-", "+-1", "++1", "1 2"})
        EXPECT_FALSE(parseInteger(bad)) << bad;
}

TEST(Parse, IntegersBeyondLongLongSaturateSoRangeChecksNameThem) {
    EXPECT_EQ(parseInteger("99999999999999999999999"), std::numeric_limits<long long>::max());
    EXPECT_EQ(parseInteger("-99999999999999999999999"), std::numeric_limits<long long>::min());
}

TEST(Parse, NumbersAreFiniteDecimals) {
    EXPECT_DOUBLE_EQ(*parseNumber("0.5"), 0.5);
    EXPECT_DOUBLE_EQ(*parseNumber("-1e-3"), -1e-3);
    EXPECT_DOUBLE_EQ(*parseNumber("+2"), 2.0);
    for (const char* bad :
         {"", " 3", "3 ", "nan", "inf", "-inf", "1e999", "2s", "1e-3x", "abc", "1,5", "+-1"})
        EXPECT_FALSE(parseNumber(bad)) << bad;
}

TEST(Parse, Sizes) {
    EXPECT_EQ(parseSize("1280x720"), (Size2{1280, 720}));
    EXPECT_EQ(parseSize("64X48"), (Size2{64, 48}));
    for (const char* bad : {"", "1280", "x720", "1280x", "0x10", "10x0", "-1x5", "1x2x3", "+1x2"})
        EXPECT_FALSE(parseSize(bad)) << bad;
}

TEST(Parse, ListsAreTrimmedAndKeepATrailingEmptyItem) {
    EXPECT_EQ(splitList(""), std::vector<std::string>{});
    EXPECT_EQ(splitList("a"), (std::vector<std::string>{"a"}));
    EXPECT_EQ(splitList(" a , b,c "), (std::vector<std::string>{"a", "b", "c"}));
    EXPECT_EQ(splitList("a,"), (std::vector<std::string>{"a", ""}));
    EXPECT_EQ(splitList("a,,b"), (std::vector<std::string>{"a", "", "b"}));
    EXPECT_EQ(splitList("1;2", ';'), (std::vector<std::string>{"1", "2"}));
}

TEST(Parse, ChoicesAndTheirList) {
    const std::vector<std::string> names = {"linear", "log"};
    EXPECT_EQ(parseChoice("log", names), 1u);
    EXPECT_FALSE(parseChoice("Log", names));  // callers lower-case where case does not matter
    EXPECT_FALSE(parseChoice("", names));
    EXPECT_EQ(choiceList(names), "linear or log");
    EXPECT_EQ(choiceList({"a", "b", "c"}), "a, b or c");
    EXPECT_EQ(choiceList({"a"}), "a");
    EXPECT_EQ(choiceList({}), "");
}

TEST(Parse, RoundUpPadsToWholeGroups) {
    EXPECT_EQ(roundUp(0, 64), 0u);
    EXPECT_EQ(roundUp(1, 64), 64u);
    EXPECT_EQ(roundUp(64, 64), 64u);
    EXPECT_EQ(roundUp(65, 64), 128u);
    EXPECT_EQ(roundUp(7, 1), 7u);
    static_assert(roundUp(1000, 256) == 1024);
}
