// The on-disk program binary cache: hits across ProgramCache instances (as across processes),
// every kind of bad file ignored and rebuilt, atomic writes under concurrency, the directory the
// environment picks; and the in-memory cache under threads (readers never wait for a build).
#include <gtest/gtest.h>

#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <thread>
#include <vector>

#include "compute/core/kernel_source.hpp"
#include "compute/core/program_cache.hpp"
#include "compute/image/reference.hpp"
#include "tests/compute/image/test_support.hpp"

using namespace clviz;
using namespace clviz::test;
namespace fs = std::filesystem;

namespace {

struct CacheDir {
    fs::path path;
    CacheDir() {
        path = fs::temp_directory_path() / ("clviz-cache-test-" + std::to_string(::getpid()) + "-" +
                                            std::to_string(counter()++));
        fs::remove_all(path);
        fs::create_directories(path);
    }
    ~CacheDir() { fs::remove_all(path); }
    static int& counter() {
        static int c = 0;
        return c;
    }
};

ProgramRecord recordOf(const ProgramCache& cache, const std::string& file) {
    for (const auto& r : cache.records())
        if (r.file == file) return r;
    throw std::logic_error("no record for " + file);
}

// Builds grayscale.cl through a fresh cache on `dir` and checks the kernel still computes the
// right thing; returns where the program came from.
ProgramOrigin buildGrayscale(const fs::path& dir) {
    ProgramCache cache(context().context(), context().device(), dir);
    cl::Kernel k = cache.kernel("grayscale.cl", "grayscale");
    const Rgba8Image src = randomImage(13, 7, 5);
    cl::Buffer in = upload(src), out = deviceBuffer(src.size());
    k.setArg(0, in);
    k.setArg(1, out);
    k.setArg(2, static_cast<cl_uint>(src.size().pixels()));
    context().queue().enqueueNDRangeKernel(k, cl::NullRange, cl::NDRange(src.size().pixels()));
    EXPECT_EQ(maxDifference(download(out, src.size()), reference::grayscale(src)), 0);
    return recordOf(cache, "grayscale.cl").origin;
}

fs::path entryPath(const fs::path& dir) {
    const ProgramBinaryCache disk(dir, context().device());
    return disk.pathFor("grayscale.cl", kernelSource("grayscale.cl"), "");
}

std::string readAll(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
}

void writeAll(const fs::path& p, const std::string& bytes) {
    std::ofstream(p, std::ios::binary | std::ios::trunc) << bytes;
}

}  // namespace

TEST(ProgramBinaryCache, SecondCacheLoadsTheBinary) {
    CacheDir dir;
    EXPECT_EQ(buildGrayscale(dir.path), ProgramOrigin::Source);
    EXPECT_TRUE(fs::exists(entryPath(dir.path)));
    EXPECT_EQ(buildGrayscale(dir.path), ProgramOrigin::BinaryCache);
}

TEST(ProgramBinaryCache, OtherOptionsOrSourceMiss) {
    CacheDir dir;
    const ProgramBinaryCache disk(dir.path, context().device());
    const std::string src = kernelSource("grayscale.cl");
    ASSERT_EQ(disk.store("grayscale.cl", src, "", {1, 2, 3}), "");
    std::string why;
    EXPECT_TRUE(disk.load("grayscale.cl", src, "", &why).has_value()) << why;
    EXPECT_FALSE(disk.load("grayscale.cl", src, "-DX=1", &why).has_value());
    EXPECT_EQ(why, "no entry");
    EXPECT_FALSE(disk.load("grayscale.cl", src + " ", "", &why).has_value());
    EXPECT_EQ(why, "no entry");
}

TEST(ProgramBinaryCache, CorruptTruncatedOrForeignFilesAreRebuilt) {
    CacheDir dir;
    ASSERT_EQ(buildGrayscale(dir.path), ProgramOrigin::Source);
    const fs::path entry = entryPath(dir.path);
    const std::string good = readAll(entry);
    ASSERT_GT(good.size(), 64u);

    std::string flipped = good;
    flipped[good.size() - 10] ^= 0x5a;  // in the binary: the checksum catches it
    std::string header = good;
    header[3] ^= 0x01;  // the magic
    const std::vector<std::pair<const char*, std::string>> bad = {
        {"one flipped byte", flipped},
        {"bad magic", header},
        {"truncated to half", good.substr(0, good.size() / 2)},
        {"one byte short", good.substr(0, good.size() - 1)},
        {"one byte extra", good + "x"},
        {"header only", good.substr(0, 12)},
        {"empty", ""},
        {"text", "this is not a program binary\n"},
    };
    for (const auto& [what, bytes] : bad) {
        SCOPED_TRACE(what);
        writeAll(entry, bytes);
        std::string why;
        EXPECT_FALSE(ProgramBinaryCache(dir.path, context().device())
                         .load("grayscale.cl", kernelSource("grayscale.cl"), "", &why)
                         .has_value());
        EXPECT_NE(why, "no entry");
        EXPECT_EQ(buildGrayscale(dir.path), ProgramOrigin::Source);
        // The rebuild replaced the bad file with a good one.
        EXPECT_EQ(buildGrayscale(dir.path), ProgramOrigin::BinaryCache);
    }
}

TEST(ProgramBinaryCache, BinaryTheDriverRefusesIsRebuilt) {
    CacheDir dir;
    const ProgramBinaryCache disk(dir.path, context().device());
    // A well-formed entry (checksum right) whose binary is garbage.
    const std::vector<unsigned char> garbage(4096, 0xab);
    ASSERT_EQ(disk.store("grayscale.cl", kernelSource("grayscale.cl"), "", garbage), "");
    const ProgramBuild b = buildProgram(context().context(), context().device(), "grayscale.cl",
                                        kernelSource("grayscale.cl"), "", &disk);
    ASSERT_TRUE(b.ok()) << b.error;
    EXPECT_EQ(b.origin, ProgramOrigin::Source);
    EXPECT_NE(b.cacheNote.find("refused"), std::string::npos) << b.cacheNote;
    EXPECT_EQ(buildGrayscale(dir.path), ProgramOrigin::BinaryCache);
}

TEST(ProgramBinaryCache, ConcurrentWritersNeverExposeHalfFiles) {
    CacheDir dir;
    const ProgramBinaryCache disk(dir.path, context().device());
    const std::string src = "kernel void k() {}";
    const std::vector<unsigned char> a(200000, 1), b(300000, 2);
    std::atomic<bool> stop{false};
    std::atomic<int> hits{0}, bad{0};
    std::vector<std::thread> threads;
    for (int w = 0; w < 3; ++w)
        threads.emplace_back([&, w] {
            for (int i = 0; i < 40; ++i)
                EXPECT_EQ(disk.store("k.cl", src, "", (i + w) % 2 ? a : b), "");
        });
    std::thread reader([&] {
        while (!stop) {
            std::string why;
            if (auto got = disk.load("k.cl", src, "", &why))
                (*got == a || *got == b) ? ++hits : ++bad;
            else if (why != "no entry")
                ++bad;
        }
    });
    for (auto& t : threads)
        t.join();
    stop = true;
    reader.join();
    EXPECT_EQ(bad, 0);
    EXPECT_GT(hits, 0);
    int files = 0;
    for ([[maybe_unused]] const auto& e : fs::directory_iterator(dir.path))
        ++files;
    EXPECT_EQ(files, 1) << "temporary files left behind";
}

TEST(ProgramBinaryCache, DirectoryFromTheEnvironment) {
    const char* savedXdg = std::getenv("XDG_CACHE_HOME");
    const char* savedSwitch = std::getenv("CLVIZ_PROGRAM_CACHE");
    const std::string xdg = savedXdg ? savedXdg : "", sw = savedSwitch ? savedSwitch : "";
    ::unsetenv("CLVIZ_PROGRAM_CACHE");
    ::setenv("XDG_CACHE_HOME", "/tmp/xdg-test", 1);
    EXPECT_EQ(ProgramBinaryCache::defaultDirectory(), fs::path("/tmp/xdg-test/clviz/programs"));
    ::setenv("CLVIZ_PROGRAM_CACHE", "off", 1);
    EXPECT_FALSE(ProgramBinaryCache::defaultDirectory().has_value());
    ::setenv("CLVIZ_PROGRAM_CACHE", "/tmp/elsewhere", 1);
    EXPECT_EQ(ProgramBinaryCache::defaultDirectory(), fs::path("/tmp/elsewhere"));
    savedXdg ? ::setenv("XDG_CACHE_HOME", xdg.c_str(), 1) : ::unsetenv("XDG_CACHE_HOME");
    savedSwitch ? ::setenv("CLVIZ_PROGRAM_CACHE", sw.c_str(), 1)
                : ::unsetenv("CLVIZ_PROGRAM_CACHE");
}

TEST(ProgramBinaryCache, MemoryOnlyWithoutADirectory) {
    ProgramCache cache(context().context(), context().device(), std::nullopt);
    EXPECT_EQ(cache.disk(), nullptr);
    cache.get("grayscale.cl");
    EXPECT_EQ(recordOf(cache, "grayscale.cl").origin, ProgramOrigin::Source);
}

// A build holds no lock that readers wait on: the frame lists records() (the Kernels panel) while
// a background job builds, and a panel that waited froze the window for the whole build.
TEST(ProgramCache, ReadersDoNotWaitForABuild) {
    ProgramCache cache(context().context(), context().device(), std::nullopt);
    // Options no compiler cache has seen: a real build from source, tens of ms at least.
    const std::string options =
        "-DCLVIZ_TEST_NONCE=" + std::to_string(::getpid()) +
        std::to_string(std::chrono::steady_clock::now().time_since_epoch().count());
    std::atomic<bool> started{false}, done{false};
    std::thread builder([&] {
        started = true;
        cache.get("grayscale.cl", options);
        done = true;
    });
    while (!started)
        std::this_thread::yield();
    std::this_thread::sleep_for(std::chrono::milliseconds(2));  // the builder is in get() now
    const std::size_t programs = cache.records().size();
    const bool builtMeanwhile = done;
    builder.join();
    EXPECT_FALSE(builtMeanwhile) << "records() waited for the build";
    EXPECT_EQ(programs, 0u);
    EXPECT_EQ(cache.size(), 1u);
}

// Two threads that ask for the same program at once both get it; the cache keeps one.
TEST(ProgramCache, ConcurrentRequestsForOneProgramKeepOne) {
    ProgramCache cache(context().context(), context().device(), std::nullopt);
    std::vector<std::thread> threads;
    std::atomic<int> built{0};
    for (int t = 0; t < 3; ++t)
        threads.emplace_back([&] {
            cl::Kernel k = cache.kernel("grayscale.cl", "grayscale", "-DCLVIZ_SAME=1");
            if (k()) ++built;
        });
    for (auto& t : threads)
        t.join();
    EXPECT_EQ(built, 3);
    EXPECT_EQ(cache.size(), 1u);
    EXPECT_EQ(cache.records().size(), 1u);
}
