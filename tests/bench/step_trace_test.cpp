// The --timeline file: the Trace Event Format that chrome://tracing and Perfetto read, one process
// per device of a row, one thread per lane, spans in microseconds; an unwritable path is an error.
#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <nlohmann/json.hpp>

#include "bench/step_trace.hpp"
#include "common/error.hpp"
#include "tests/support/temp_dir.hpp"

namespace clviz::bench {
namespace {

NbodyStepTimeline twoDevices() {
    NbodyStepTimeline t;
    t.devices = {"gpu A", "gpu B"};
    t.spans = {{0, "kernels", "tree-walk", 0.0, 120.5},
               {0, "slice copies", "slice copy", 100.0, 30.0},
               {1, "kernels", "tree-walk", 5.0, 118.0}};
    return t;
}

TEST(StepTrace, WritesEachDeviceOfEachRowAsAProcessAndEachLaneAsAThread) {
    test::TempDir dir;
    const std::string path = (dir.path() / "steps.json").string();
    writeStepTraces(path, {{"tree x2 N=100", twoDevices()}, {"tree x2 N=200", twoDevices()}});
    std::ifstream in(path);
    const nlohmann::json doc = nlohmann::json::parse(in);
    EXPECT_EQ(doc["displayTimeUnit"], "ms");
    std::map<int, std::string> processes;
    std::map<std::pair<int, int>, std::string> threads;
    std::vector<nlohmann::json> spans;
    for (const auto& e : doc["traceEvents"]) {
        if (e["ph"] == "M" && e["name"] == "process_name")
            processes[e["pid"]] = e["args"]["name"];
        else if (e["ph"] == "M" && e["name"] == "thread_name")
            threads[{e["pid"], e["tid"]}] = e["args"]["name"];
        else if (e["ph"] == "X")
            spans.push_back(e);
    }
    ASSERT_EQ(processes.size(), 4u);
    EXPECT_EQ(processes[0], "tree x2 N=100: device 0 (gpu A)");
    EXPECT_EQ(processes[3], "tree x2 N=200: device 1 (gpu B)");
    ASSERT_EQ(spans.size(), 6u);
    EXPECT_EQ(spans[1]["name"], "slice copy");
    EXPECT_EQ(spans[1]["pid"], 0);
    EXPECT_EQ((threads[{0, spans[1]["tid"]}]), "slice copies");
    EXPECT_EQ((threads[{0, spans[0]["tid"]}]), "kernels");
    EXPECT_DOUBLE_EQ(spans[0]["dur"].get<double>(), 120.5);
    EXPECT_DOUBLE_EQ(spans[2]["ts"].get<double>(), 5.0);
    EXPECT_EQ(spans[5]["pid"], 3);
}

// A copy whose bytes are known says them and its rate; kernels and copies of unknown size say
// nothing more.
TEST(StepTrace, CopiesOfKnownSizeCarryTheirBytesAndRate) {
    test::TempDir dir;
    const std::string path = (dir.path() / "steps.json").string();
    NbodyStepTimeline t = twoDevices();
    t.spans.push_back({1, "split build copies", "essential out", 10.0, 250.0, 10'000'000});
    writeStepTraces(path, {{"tree x2", t}});
    std::ifstream in(path);
    const nlohmann::json doc = nlohmann::json::parse(in);
    int withArgs = 0;
    for (const auto& e : doc["traceEvents"]) {
        if (e["ph"] != "X") continue;
        if (e["name"] != "essential out") {
            EXPECT_FALSE(e.contains("args")) << e["name"];
            continue;
        }
        ++withArgs;
        EXPECT_EQ(e["args"]["bytes"], 10'000'000);
        EXPECT_DOUBLE_EQ(e["args"]["GB/s"].get<double>(), 40.0);  // 10 MB in 250 us
    }
    EXPECT_EQ(withArgs, 1);
}

// A span that knows its command (a kernel's function name, or a copy's type) says it.
TEST(StepTrace, SpansSayTheirCommand) {
    test::TempDir dir;
    const std::string path = (dir.path() / "steps.json").string();
    NbodyStepTimeline t = twoDevices();
    t.spans[0].command = "walk";
    t.spans.push_back({1, "split build copies", "graft in", 10.0, 250.0, 1000, "write buffer"});
    writeStepTraces(path, {{"tree x2", t}});
    std::ifstream in(path);
    const nlohmann::json doc = nlohmann::json::parse(in);
    std::map<std::string, std::string> commands;
    for (const auto& e : doc["traceEvents"])
        if (e["ph"] == "X" && e.contains("args") && e["args"].contains("command"))
            commands[e["name"]] = e["args"]["command"];
    EXPECT_EQ(commands.size(), 2u);
    EXPECT_EQ(commands["tree-walk"], "walk");
    EXPECT_EQ(commands["graft in"], "write buffer");
}

TEST(StepTrace, SaysWhenTheFileCannotBeWritten) {
    test::TempDir dir;
    EXPECT_THROW(
        writeStepTraces((dir.path() / "no/such/folder/steps.json").string(), {{"x", twoDevices()}}),
        Error);
}

}  // namespace
}  // namespace clviz::bench
