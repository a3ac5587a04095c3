#include "app/run_app.hpp"

#include <cstdio>
#include <filesystem>

#include "app/application.hpp"
#include "app/cli.hpp"
#include "app/demo_registry.hpp"
#include "app/settings_help.hpp"
#include "app/viewer_start.hpp"
#include "bench/suites.hpp"
#include "common/error.hpp"
#include "common/output_target.hpp"
#include "common/quoted_path.hpp"
#include "compute/core/program_cache.hpp"

#ifndef CLVIZ_VERSION
#define CLVIZ_VERSION "unknown"
#endif

namespace clviz {

namespace {

int fail(int status, const std::string& message) {
    std::fprintf(stderr, "clviz: error: %s\n", message.c_str());
    return status;
}

int runBenchmark(const AppOptions& app) {
    bench::BenchOptions options;
    try {
        if (!bench::parseBenchOptions(app.benchmarkArgs, options)) {
            std::fputs(bench::benchUsage("clviz --benchmark").c_str(), stdout);
            return 0;
        }
    } catch (const Error& e) {
        return fail(2, e.what());
    }
    // -p/-d/--device-type given before --benchmark count unless repeated after it.
    if (!options.device.platform) options.device.platform = app.device.platform;
    if (!options.device.device) options.device.device = app.device.device;
    if (options.device.type == DeviceTypeFilter::All) options.device.type = app.device.type;
    checkNamedDevices(queryPlatforms(), options.device, options.devices);  // exit 2, as the viewer
    try {
        return bench::runBenchmarks(options);
    } catch (const UsageError& e) {  // a command line the device cannot run
        return fail(2, e.what());
    }
}

// A demo's run mode (--mpi): the shell lends it the viewer and the device check.
int runDemoMode(const AppOptions& options) {
    for (const auto& [id, mode] : registeredDemoModes()) {
        if (mode.names != options.demoMode) continue;
        DemoRunServices services;
        services.runViewer = [&options, demoId = id](DemoFactory factory) {
            registerDemo(demoId, findDemo(demoId)->title, std::move(factory));
            Application app(options, chooseViewerStart(options));
            return app.run();
        };
        services.checkNamedDevices = [&options] { checkNamedDevices(queryPlatforms(), options); };
        return mode.run(options, services);
    }
    throw UsageError("no demo runs " + options.demoMode);
}

int runViewer(const AppOptions& options) {
    for (const std::string* dir : {&options.kernelDir, &options.shaderDir})
        if (!dir->empty() && !std::filesystem::is_directory(*dir))
            throw UsageError((dir == &options.kernelDir ? "--kernel-dir " : "--shader-dir ") +
                             quotedPath(*dir) + ": not a directory");
    // Output targets before anything runs: a bad one is a bad command line, said at once.
    const std::pair<const char*, const std::string*> targets[] = {
        {"--screenshot", &options.screenshotPath},
        {"--layout", &options.layoutPath},
        {"--frame-trace", &options.frameTracePath},
        {"--save", &options.savePath}};
    for (const auto& [flag, path] : targets)
        if (!path->empty())
            if (auto why = unwritableFileReason(*path))
                throw UsageError(std::string(flag) + " " + quotedPath(*path) +
                                 ": cannot write there: " + *why);
    // OpenCL first: a machine without a usable device fails fast, before any window opens.
    Application app(options, chooseViewerStart(options));
    return app.run();
}

}  // namespace

int runApp(const std::vector<std::string>& args) {
    try {
        const AppOptions options = parseCli(args);
        ProgramCache::setVerbose(options.verbose);
        switch (options.mode) {
            case AppOptions::Mode::Help:
                std::fputs(cliUsage().c_str(), stdout);
                return 0;
            case AppOptions::Mode::HelpSettings:
                std::puts(allSettingsHelp(options.helpSettingsMarkdown
                                              ? SettingsHelpFormat::Markdown
                                              : SettingsHelpFormat::Text)
                              .c_str());
                return 0;
            case AppOptions::Mode::Version:
                std::printf("clviz %s\n", CLVIZ_VERSION);
                return 0;
            case AppOptions::Mode::ListDevices: {
                const auto platforms = queryPlatforms();
                std::fputs(formatDeviceTable(platforms).c_str(), stdout);
                return platforms.empty() ? 1 : 0;
            }
            case AppOptions::Mode::Benchmark:
                return runBenchmark(options);
            case AppOptions::Mode::DemoMode:
                return runDemoMode(options);
            case AppOptions::Mode::Run:
                return runViewer(options);
        }
    } catch (const UsageError& e) {
        return fail(2, e.what());
    } catch (const std::exception& e) {
        return fail(1, e.what());
    }
    return 1;
}

}  // namespace clviz
