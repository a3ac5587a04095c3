// The viewer's command line: every flag, the defaults, and the bad cases (exit status 2).
#include <gtest/gtest.h>

#include "app/cli.hpp"
#include "app/demo_registry.hpp"

using namespace clviz;

namespace {

AppOptions parse(std::vector<std::string> args) {
    return parseCli(args);
}

// The UsageError message for args, or "" when they parse.
std::string usageError(std::vector<std::string> args) {
    try {
        parseCli(args);
    } catch (const UsageError& e) {
        return e.what();
    }
    return "";
}

}  // namespace

TEST(Cli, DefaultsRunTheViewer) {
    const AppOptions o = parse({});
    EXPECT_EQ(o.mode, AppOptions::Mode::Run);
    EXPECT_FALSE(o.device.platform);
    EXPECT_FALSE(o.device.device);
    EXPECT_EQ(o.device.type, DeviceTypeFilter::All);
    EXPECT_TRUE(o.demo.empty());
    EXPECT_FALSE(o.frames);
    EXPECT_TRUE(o.screenshotPath.empty());
    EXPECT_TRUE(o.vsync);
    EXPECT_FALSE(o.fullscreen);
    EXPECT_EQ(o.width, 1280);
    EXPECT_EQ(o.height, 720);
    EXPECT_TRUE(o.settings.empty());
    EXPECT_TRUE(o.timed.empty());
}

TEST(Cli, Modes) {
    EXPECT_EQ(parse({"--help"}).mode, AppOptions::Mode::Help);
    EXPECT_EQ(parse({"-h"}).mode, AppOptions::Mode::Help);
    EXPECT_EQ(parse({"--version"}).mode, AppOptions::Mode::Version);
    EXPECT_EQ(parse({"--list-devices"}).mode, AppOptions::Mode::ListDevices);
}

TEST(Cli, DeviceChoice) {
    const AppOptions o = parse({"-p", "1", "-d", "geforce", "--device-type", "GPU"});
    EXPECT_EQ(o.device.platform, "1");
    EXPECT_EQ(o.device.device, "geforce");
    EXPECT_EQ(o.device.type, DeviceTypeFilter::Gpu);
    const AppOptions l = parse({"--platform=nvidia", "--device=0", "--device-type=cpu"});
    EXPECT_EQ(l.device.platform, "nvidia");
    EXPECT_EQ(l.device.device, "0");
    EXPECT_EQ(l.device.type, DeviceTypeFilter::Cpu);
    EXPECT_NE(usageError({"--device-type", "fpga"}).find("cpu, gpu or all"), std::string::npos);
}

TEST(Cli, WindowAndAutomation) {
    const AppOptions o =
        parse({"--demo", "image", "--frames", "60", "--screenshot", "out.PNG", "--vsync", "off",
               "--width", "640", "--height=480", "--fullscreen"});
    EXPECT_EQ(o.demo, "image");
    EXPECT_EQ(o.frames, 60);
    EXPECT_EQ(o.screenshotPath, "out.PNG");
    EXPECT_FALSE(o.vsync);
    EXPECT_EQ(o.width, 640);
    EXPECT_EQ(o.height, 480);
    EXPECT_TRUE(o.fullscreen);
    EXPECT_TRUE(parse({"--vsync", "on"}).vsync);
    EXPECT_EQ(parse({"--width", "64"}).width, kMinWindowSize);
    EXPECT_EQ(parse({"--height", "16384"}).height, kMaxWindowSize);
}

TEST(Cli, SettingsKeepCommandLineOrderAndSugarMapsToKeys) {
    const AppOptions o = parse({"--set", "dt=0.01", "--n", "4096", "--preset", "galaxy",
                                "--variant=tiled", "--interop", "host-copy", "--image", "a b.png",
                                "--record", "frames/", "--set", "expr=a=b", "--set", "empty="});
    const std::vector<Setting> want = {{"dt", "0.01"},
                                       {"n", "4096"},
                                       {"preset", "galaxy"},
                                       {"variant", "tiled"},
                                       {"interop", "host-copy"},
                                       {"image", "a b.png"},
                                       {"record", "frames/"},
                                       {"expr", "a=b"},
                                       {"empty", ""}};
    EXPECT_EQ(o.settings, want);
    EXPECT_EQ(parse({"--save", "out.jpg"}).savePath, "out.jpg");
}

TEST(Cli, TimedSettingsAreSortedStably) {
    const AppOptions o =
        parse({"--frames", "100", "--set-at", "50:variant=b", "--set-at", "10:variant=a",
               "--set-at", "50:app.vsync=off", "--set-at", "0:n=1"});
    ASSERT_EQ(o.timed.size(), 4u);
    EXPECT_EQ(o.timed[0], (TimedSetting{0, {"n", "1"}}));
    EXPECT_EQ(o.timed[1], (TimedSetting{10, {"variant", "a"}}));
    EXPECT_EQ(o.timed[2], (TimedSetting{50, {"variant", "b"}}));
    EXPECT_EQ(o.timed[3], (TimedSetting{50, {"app.vsync", "off"}}));
}

TEST(Cli, BenchmarkTakesEverythingAfterIt) {
    const AppOptions o =
        parse({"-p", "0", "--benchmark", "--quick", "--suite", "nbody", "--bogus"});
    EXPECT_EQ(o.mode, AppOptions::Mode::Benchmark);
    EXPECT_EQ(o.device.platform, "0");
    EXPECT_EQ(o.benchmarkArgs,
              (std::vector<std::string>{"--quick", "--suite", "nbody", "--bogus"}));
    EXPECT_TRUE(parse({"--benchmark"}).benchmarkArgs.empty());
}

TEST(Cli, Seconds) {
    EXPECT_FALSE(parse({}).seconds);
    EXPECT_DOUBLE_EQ(*parse({"--seconds", "2.5"}).seconds, 2.5);
    for (const char* bad : {"0", "-1", "abc", "2s", "nan", "inf", "1e9"})
        EXPECT_NE(usageError({"--seconds", bad}).find("--seconds expects"), std::string::npos)
            << bad;
}

TEST(Cli, LastValueWins) {
    EXPECT_EQ(parse({"--frames", "5", "--frames", "7"}).frames, 7);
}

TEST(Cli, UnknownAndMalformedFlags) {
    EXPECT_EQ(usageError({"--bogus"}), "unknown option '--bogus' (see --help)");
    EXPECT_EQ(usageError({"-x"}), "unknown option '-x' (see --help)");
    EXPECT_EQ(usageError({"stray"}), "unexpected argument 'stray' (see --help)");
    EXPECT_EQ(usageError({"--help=yes"}), "--help takes no value");
    EXPECT_EQ(usageError({"--benchmark=x"}).find("--benchmark takes no"), 0u);
    EXPECT_EQ(usageError({"--frames"}), "--frames needs a value (see --help)");
    EXPECT_EQ(usageError({"-p"}), "-p needs a value (see --help)");
    EXPECT_EQ(usageError({"--demo", ""}), "--demo needs a non-empty value");
    EXPECT_EQ(usageError({"--image="}), "--image needs a non-empty value");
}

TEST(Cli, BadNumbers) {
    for (const char* bad : {"abc", "12x", "1.5", "-", "", " 3", "0x10"})
        EXPECT_NE(usageError({"--frames", bad}), "") << bad;
    EXPECT_EQ(usageError({"--frames", "12x"}), "--frames expects a whole number, got '12x'");
    EXPECT_EQ(usageError({"--frames", "0"}), "--frames must be between 1 and 1000000000, got 0");
    EXPECT_NE(usageError({"--frames", "-3"}), "");
    EXPECT_NE(usageError({"--frames", "99999999999999999999999"}).find("between"),
              std::string::npos);
    EXPECT_NE(usageError({"--n", "0"}), "");
    EXPECT_NE(usageError({"--n", "many"}), "");
    EXPECT_NE(usageError({"--n", "4294967296"}), "");
    // Issue 28: the limit quoted is the one that governs (kMaxBodies, 2^26), not 2^31.
    EXPECT_EQ(usageError({"--n", "-5"}), "--n must be between 1 and 67108864, got -5");
    EXPECT_EQ(usageError({"--n", "67108865"}), "--n must be between 1 and 67108864, got 67108865");
    EXPECT_EQ(usageError({"--n", "67108864"}), "");
    EXPECT_EQ(usageError({"--vsync", "maybe"}), "--vsync expects on or off, got 'maybe'");
}

TEST(Cli, AbsurdWindowSizes) {
    EXPECT_EQ(usageError({"--width", "100000"}),
              "--width must be between 64 and 16384, got 100000");
    EXPECT_NE(usageError({"--height", "0"}), "");
    EXPECT_NE(usageError({"--height", "63"}), "");
    EXPECT_NE(usageError({"--width", "-1280"}), "");
}

TEST(Cli, BadSettings) {
    EXPECT_EQ(usageError({"--set", "novalue"}), "--set expects key=value, got 'novalue'");
    EXPECT_EQ(usageError({"--set", "=3"}), "--set expects key=value, got '=3'");
    EXPECT_NE(usageError({"--set-at", "variant=a"}).find("FRAME:key=value"), std::string::npos);
    EXPECT_NE(usageError({"--set-at", "x:variant=a"}).find("whole number"), std::string::npos);
    EXPECT_NE(usageError({"--set-at", "-1:variant=a"}), "");
    EXPECT_NE(usageError({"--set-at", "3:variant"}).find("key=value"), std::string::npos);
    // A setting for a frame that never runs is a mistake, not a no-op.
    EXPECT_EQ(usageError({"--frames", "10", "--set-at", "10:n=5"}),
              "--set-at 10:n never happens: --frames 10 runs frames 0 to 9");
    EXPECT_EQ(usageError({"--frames", "10", "--set-at", "9:n=5"}), "");
}

TEST(Cli, ScreenshotMustBePng) {
    EXPECT_NE(usageError({"--screenshot", "shot.jpg"}).find("must end in .png"), std::string::npos);
    EXPECT_NE(usageError({"--screenshot", ".png"}), "");
    EXPECT_EQ(usageError({"--screenshot", "dir/a.png"}), "");
}

TEST(Cli, OnOff) {
    for (const char* on : {"on", "ON", "true", "1", "yes"})
        EXPECT_EQ(parseOnOff(on), true) << on;
    for (const char* off : {"off", "false", "0", "No"})
        EXPECT_EQ(parseOnOff(off), false) << off;
    EXPECT_FALSE(parseOnOff("2"));
    EXPECT_FALSE(parseOnOff(""));
}

TEST(Cli, HelpListsEveryFlagWithDefaults) {
    const std::string help = cliUsage();
    // clang-format off
    const char* expected[] = {
        "--platform", "--device", "--device-type", "--list-devices", "--demo", "--width",
        "--height", "--vsync", "--fullscreen", "--frames", "--seconds", "--screenshot", "--set ",
        "--set-at", "--n ", "--preset", "--variant", "--interop", "--record", "--image", "--save",
        "--benchmark", "--help", "--version",
        "[1280]", "[720]", "[on]", "[all]",    // defaults
        "Esc/Q   quit", "F12/P   screenshot",  // app keys
    };
    // clang-format on
    for (const char* text : expected)
        EXPECT_NE(help.find(text), std::string::npos) << text;
}

TEST(Cli, FrameTraceTakesAFile) {
    EXPECT_TRUE(parse({}).frameTracePath.empty());
    EXPECT_EQ(parse({"--frame-trace", "trace.csv"}).frameTracePath, "trace.csv");
    EXPECT_EQ(usageError({"--frame-trace"}), "--frame-trace needs a value (see --help)");
    EXPECT_NE(cliUsage().find("--frame-trace FILE.csv"), std::string::npos);
}

TEST(Cli, LiveEditingFlags) {
    const AppOptions d = parse({});
    EXPECT_TRUE(d.kernelDir.empty());
    EXPECT_TRUE(d.shaderDir.empty());
    EXPECT_FALSE(d.verbose);
    const AppOptions o = parse({"--kernel-dir", "k", "--shader-dir=s", "--verbose"});
    EXPECT_EQ(o.kernelDir, "k");
    EXPECT_EQ(o.shaderDir, "s");
    EXPECT_TRUE(o.verbose);
    EXPECT_THROW(parse({"--kernel-dir"}), UsageError);
    EXPECT_THROW(parse({"--verbose=yes"}), UsageError);
    EXPECT_NE(cliUsage().find("--kernel-dir DIR"), std::string::npos);
}

// The shell names no demo flag itself: each registered demo's flags and run modes reach the table
// and --help.
TEST(Cli, DemoFlagsComeFromTheRegistry) {
    const auto flags = registeredDemoFlags();
    ASSERT_FALSE(flags.empty());
    const std::string help = cliUsage();
    for (const auto& f : flags) {
        EXPECT_NE(help.find(f.names + (f.valueName.empty() ? "" : " " + f.valueName)),
                  std::string::npos)
            << f.names;
        std::vector<std::string> args = {f.names};
        if (!f.valueName.empty()) args.push_back("1");
        if (!f.onlyWith.empty()) args.push_back(f.onlyWith);
        const AppOptions o = parse(args);
        const std::string want = f.valueName.empty() ? "on" : "1";
        if (f.goes == DemoFlag::Goes::Setting) {
            ASSERT_EQ(o.settings.size(), 1u) << f.names;
            EXPECT_EQ(o.settings[0], (Setting{f.key, want}));
        } else {
            EXPECT_EQ(o.demoOptions.at(f.key), want) << f.names;
        }
        if (!f.onlyWith.empty()) {
            EXPECT_EQ(usageError({f.names, f.valueName.empty() ? "--verbose" : "1"}),
                      f.names + " goes with " + f.onlyWith);
        }
    }
    for (const auto& [id, mode] : registeredDemoModes()) {
        EXPECT_NE(help.find(mode.names), std::string::npos) << mode.names;
        const AppOptions o = parse({mode.names});
        EXPECT_EQ(o.mode, AppOptions::Mode::DemoMode);
        EXPECT_EQ(o.demoMode, mode.names);
    }
    EXPECT_NE(help.find(demoIdList()), std::string::npos);
}
