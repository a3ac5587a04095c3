// One table of an enum's spellings, read both ways.
#include "common/named_values.hpp"

#include <gtest/gtest.h>

namespace clviz {
namespace {

enum class Fruit { Apple, Pear, Plum };
constexpr NamedValue<Fruit> kFruit[] = {
    {Fruit::Apple, "apple"}, {Fruit::Pear, "pear"}, {Fruit::Plum, "plum"}};
constexpr NamedValue<Fruit> kOne[] = {{Fruit::Pear, "pear"}};

TEST(NamedValues, NamesAndValuesBothWays) {
    EXPECT_STREQ(nameOf(kFruit, Fruit::Pear), "pear");
    EXPECT_STREQ(nameOf(kOne, Fruit::Apple), "?");
    EXPECT_EQ(parseNamed(kFruit, "plum", "fruit"), Fruit::Plum);
}

TEST(NamedValues, AnUnknownNameListsTheKnownOnes) {
    try {
        parseNamed(kFruit, "Plum", "fruit");
        FAIL() << "accepted 'Plum'";
    } catch (const Error& e) {
        EXPECT_STREQ(e.what(), "unknown fruit 'Plum' (expected apple, pear or plum)");
    }
    EXPECT_EQ(nameList(kOne), "pear");
}

}  // namespace
}  // namespace clviz
