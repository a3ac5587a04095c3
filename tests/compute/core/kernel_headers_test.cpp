// Shared kernel headers on a device: a program built through the ProgramCache sees its headers,
// the compiler's log names the header's file and line, the live reloader rebuilds every program
// that includes an edited header (and only those), a header that appears later brings the
// failed rebuild back, and the binary cache misses when only a header changed.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>

#include "common/error.hpp"
#include "compute/core/compute_context.hpp"
#include "compute/core/kernel_reloader.hpp"
#include "compute/core/kernel_source.hpp"

#include "tests/support/editor_save.hpp"
#include "tests/support/temp_dir.hpp"

using namespace clviz;
namespace fs = std::filesystem;

namespace {

// A kernel directory of small programs: a.cl and b.cl include common/value.clh (which includes
// common/twice.clh); c.cl includes nothing.
struct ProbeKernels {
    test::TempDir tmp;  // removed with the object
    fs::path dir = tmp.path();
    ProbeKernels() {
        fs::create_directories(dir / "common");
        write("a.cl", program("a", "#include \"common/value.clh\"\n", "VALUE"));
        write("b.cl", program("b", "// b\n#include \"common/value.clh\"\n", "twice(VALUE)"));
        write("c.cl", program("c", "", "7"));
        write("common/value.clh", value(1));
        write("common/twice.clh",
              "#ifndef TWICE_CLH\n#define TWICE_CLH\nint twice(int x) { return 2 * x; }\n#endif\n");
        setKernelDirectory(dir.string());
    }
    ~ProbeKernels() { setKernelDirectory(""); }
    static std::string program(const std::string& name, const std::string& includes,
                               const std::string& expression) {
        return includes + "kernel void " + name + "(global int* out) { out[0] = " + expression +
               "; }\n";
    }
    static std::string value(int v) {
        return "#ifndef VALUE_CLH\n#define VALUE_CLH\n#include \"common/twice.clh\"\n#define "
               "VALUE " +
               std::to_string(v) + "\n#endif\n";
    }
    void write(const std::string& name, const std::string& text) const {
        test::saveAsEditorsDo(dir / name, text);
    }
};

std::unique_ptr<ComputeContext> freshContext(const std::string& cache = "off") {
    ::setenv("CLVIZ_PROGRAM_CACHE", cache.c_str(), 1);
    return ComputeContext::create(DeviceRequest{});
}

// Runs kernel `name` of kernels/<name>.cl from the cache and returns what it wrote.
int run(ComputeContext& cc, const std::string& name) {
    cl::Kernel k = cc.programs().kernel(name + ".cl", name);
    cl::Buffer out(cc.context(), CL_MEM_WRITE_ONLY, sizeof(int));
    k.setArg(0, out);
    cc.queue().enqueueNDRangeKernel(k, cl::NullRange, cl::NDRange(1));
    int v = 0;
    cc.queue().enqueueReadBuffer(out, CL_TRUE, 0, sizeof v, &v);
    return v;
}

// Every reload a change starts (one per program that includes it), once all have finished.
std::vector<KernelReloadEvent> everyReload(KernelReloader& reloader) {
    auto events = reloader.waitForReload(60);
    while (reloader.busy()) {
        const auto more = reloader.waitForReload(60);
        events.insert(events.end(), more.begin(), more.end());
    }
    return events;
}

std::vector<std::string> filesOf(const std::vector<KernelReloadEvent>& events) {
    std::vector<std::string> files;
    for (const auto& e : events)
        files.push_back(e.file);
    std::sort(files.begin(), files.end());
    return files;
}

}  // namespace

TEST(KernelHeaders, ProgramsSeeTheirNestedHeaders) {
    ProbeKernels k;
    auto cc = freshContext();
    EXPECT_EQ(run(*cc, "a"), 1);
    EXPECT_EQ(run(*cc, "b"), 2);
    EXPECT_EQ(run(*cc, "c"), 7);
    EXPECT_EQ(cc->programs().includesOf("b.cl"),
              (std::vector<std::string>{"common/value.clh", "common/twice.clh"}));
    EXPECT_TRUE(cc->programs().includesOf("c.cl").empty());
}

TEST(KernelHeaders, BuildLogNamesTheHeaderAndItsLine) {
    ProbeKernels k;
    k.write("common/value.clh", "#define VALUE 1\n\nint broken( { }\n");  // error on line 3
    auto cc = freshContext();
    try {
        run(*cc, "a");
        FAIL() << "the broken header built";
    } catch (const Error& e) {
        const std::string log = e.what();
        EXPECT_NE(log.find("kernels/common/value.clh:3:"), std::string::npos) << log;
    }
    // An error in the program after the include is reported at the program's own line.
    k.write("common/value.clh", ProbeKernels::value(1));
    k.write("c.cl",
            "#include \"common/value.clh\"\n\nkernel void c(global int* out) { out[0] = ; }\n");
    try {
        run(*cc, "c");
        FAIL() << "the broken program built";
    } catch (const Error& e) {
        const std::string log = e.what();
        EXPECT_NE(log.find("kernels/c.cl:3:"), std::string::npos) << log;
    }
}

TEST(KernelHeaders, MissingHeaderNamesTheIncludingLine) {
    ProbeKernels k;
    k.write("c.cl", "// c\n#include \"common/nowhere.clh\"\n");
    auto cc = freshContext();
    try {
        run(*cc, "c");
        FAIL() << "built without its header";
    } catch (const Error& e) {
        EXPECT_NE(
            std::string(e.what()).find("kernels/c.cl:2: cannot include \"common/nowhere.clh\""),
            std::string::npos)
            << e.what();
    }
}

TEST(KernelHeaders, HeaderEditRebuildsEveryProgramThatIncludesIt) {
    ProbeKernels k;
    auto cc = freshContext();
    ASSERT_EQ(run(*cc, "a"), 1);
    ASSERT_EQ(run(*cc, "b"), 2);
    ASSERT_EQ(run(*cc, "c"), 7);
    KernelReloader reloader(cc->programs(), k.dir.string());

    k.write("common/value.clh", ProbeKernels::value(5));  // a direct include of a.cl and b.cl
    auto events = everyReload(reloader);
    EXPECT_EQ(filesOf(events), (std::vector<std::string>{"a.cl", "b.cl"}));
    for (const auto& e : events)
        EXPECT_TRUE(e.installed) << e.message;
    EXPECT_EQ(run(*cc, "a"), 5);
    EXPECT_EQ(run(*cc, "b"), 10);

    // A nested header (included through value.clh): only b.cl calls twice(), both include it.
    k.write("common/twice.clh",
            "#ifndef TWICE_CLH\n#define TWICE_CLH\nint twice(int x) { return 3 * x; }\n#endif\n");
    events = everyReload(reloader);
    EXPECT_EQ(filesOf(events), (std::vector<std::string>{"a.cl", "b.cl"}));
    EXPECT_EQ(run(*cc, "b"), 15);
    EXPECT_EQ(run(*cc, "c"), 7);
}

TEST(KernelHeaders, AHeaderThatAppearsBringsTheRebuildBack) {
    ProbeKernels k;
    auto cc = freshContext();
    ASSERT_EQ(run(*cc, "c"), 7);
    KernelReloader reloader(cc->programs(), k.dir.string());
    k.write("c.cl", "#include \"common/later.clh\"\n" + ProbeKernels::program("c", "", "LATER"));
    auto events = reloader.waitForReload(60);
    ASSERT_EQ(events.size(), 1u);
    EXPECT_FALSE(events[0].ok);
    EXPECT_NE(events[0].message.find("kernels/c.cl:1: cannot include \"common/later.clh\""),
              std::string::npos)
        << events[0].message;
    EXPECT_EQ(run(*cc, "c"), 7) << "the last good build keeps running";

    k.write("common/later.clh", "#define LATER 9\n");
    events = reloader.waitForReload(60);
    ASSERT_EQ(events.size(), 1u);
    EXPECT_TRUE(events[0].installed) << events[0].message;
    EXPECT_EQ(run(*cc, "c"), 9);
}

TEST(KernelHeaders, BinaryCacheMissesWhenOnlyAHeaderChanged) {
    ProbeKernels k;
    const fs::path cacheDir = k.dir.string() + "-programs";
    fs::remove_all(cacheDir);
    auto originOf = [&](const std::string& file) {
        auto cc = freshContext(cacheDir.string());
        const int v = run(*cc, "a");
        for (const auto& r : cc->programs().records())
            if (r.file == file) return std::make_pair(r.origin, v);
        throw std::logic_error("no record");
    };
    EXPECT_EQ(originOf("a.cl"), std::make_pair(ProgramOrigin::Source, 1));
    EXPECT_EQ(originOf("a.cl"), std::make_pair(ProgramOrigin::BinaryCache, 1));
    k.write("common/value.clh", ProbeKernels::value(4));
    EXPECT_EQ(originOf("a.cl"), std::make_pair(ProgramOrigin::Source, 4)) << "stale binary used";
    EXPECT_EQ(originOf("a.cl"), std::make_pair(ProgramOrigin::BinaryCache, 4));
    fs::remove_all(cacheDir);
}
