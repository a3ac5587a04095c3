// clviz-bench's options for the split tree: the walk pieces halving by default, even on request,
// the old flag still accepted; the whole tree built on every device by default, split on request;
// a clear refusal of anything else; and --timeline only with --devices, to a file that can be
// written, refused before any device is opened.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "bench/bench_options.hpp"
#include "bench/suites.hpp"
#include "common/error.hpp"
#include "common/flag_table.hpp"

namespace clviz::bench {
namespace {

BenchOptions parsed(const std::vector<std::string>& args) {
    BenchOptions o;
    EXPECT_TRUE(parseBenchOptions(args, o));
    return o;
}

TEST(BenchOptions, TreeWalkPiecesHalveByDefaultAndOnRequestEven) {
    EXPECT_TRUE(parsed({}).treeWalkHalving);
    EXPECT_FALSE(parsed({"--tree-walk-split", "even"}).treeWalkHalving);
    EXPECT_TRUE(parsed({"--tree-walk-split", "halving"}).treeWalkHalving);
    EXPECT_TRUE(parsed({"--tree-walk-split", "even", "--tree-walk-halving"}).treeWalkHalving)
        << "the old flag still means halving";
}

TEST(BenchOptions, TreeWalkSplitRefusesOtherValuesNamingTheFlag) {
    BenchOptions o;
    try {
        parseBenchOptions({"--tree-walk-split", "thirds"}, o);
        FAIL() << "accepted 'thirds'";
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find("--tree-walk-split"), std::string::npos) << e.what();
        EXPECT_NE(std::string(e.what()).find("thirds"), std::string::npos) << e.what();
    }
}

TEST(BenchOptions, TreeBuildWholeByDefaultSplitOnRequestAndNothingElse) {
    EXPECT_FALSE(parsed({}).treeSplitBuild);
    EXPECT_FALSE(parsed({"--tree-build", "whole"}).treeSplitBuild);
    EXPECT_TRUE(parsed({"--tree-build", "split"}).treeSplitBuild);
    BenchOptions o;
    try {
        parseBenchOptions({"--tree-build", "halves"}, o);
        FAIL() << "accepted 'halves'";
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find("--tree-build"), std::string::npos) << e.what();
        EXPECT_NE(std::string(e.what()).find("halves"), std::string::npos) << e.what();
    }
}

TEST(BenchOptions, TimelineNeedsTheDeviceSplitAndAWritableFile) {
    EXPECT_EQ(parsed({"--timeline", "steps.json"}).timelinePath, "steps.json");
    auto refusal = [](const std::vector<std::string>& args) {
        try {
            runBenchmarks(parsed(args));
        } catch (const UsageError& e) {
            return std::string(e.what());
        }
        return std::string("accepted");
    };
    EXPECT_NE(refusal({"--timeline", "steps.json"}).find("--devices"), std::string::npos);
    EXPECT_NE(refusal({"--timeline", "steps.json", "--devices", "all", "--mpi"}).find("--mpi"),
              std::string::npos);
    const std::string why =
        refusal({"--timeline", "/no/such/folder/steps.json", "--devices", "all"});
    EXPECT_NE(why.find("/no/such/folder/steps.json"), std::string::npos) << why;
}

}  // namespace
}  // namespace clviz::bench
