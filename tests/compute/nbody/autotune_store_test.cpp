// The auto-tune store: where the user's file lives, the file written and read back by another
// store (another run), and lines that must never reach a kernel build.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include <unistd.h>

#include "compute/core/device_info.hpp"
#include "compute/nbody/autotune_store.hpp"

using namespace clviz;

namespace {

std::filesystem::path scratchFile(const char* name) {
    const auto dir = std::filesystem::temp_directory_path() /
                     ("clviz-autotune-test-" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir);
    return dir / name;
}

}  // namespace

TEST(NbodyAutotuneStore, UserCacheFileFollowsXdgThenHome) {
    EXPECT_EQ(NbodyAutotuneStore::userCacheFile("/x", "/h"), "/x/clviz/nbody-autotune.txt");
    EXPECT_EQ(NbodyAutotuneStore::userCacheFile("", "/h"), "/h/.cache/clviz/nbody-autotune.txt");
    EXPECT_EQ(NbodyAutotuneStore::userCacheFile(nullptr, nullptr), "");
}

TEST(NbodyAutotuneStore, KeyNamesDeviceDriverVariantPrecisionAndSizeBucket) {
    DeviceInfo d;
    d.name = "GPU";
    d.driverVersion = "550";
    EXPECT_EQ(NbodyAutotuneStore::key(d, NbodyVariant::SmallN, NbodyPrecision::Double, 1000),
              "GPU|550|small-n|fp64|n2^10");
    EXPECT_EQ(NbodyAutotuneStore::key(d, NbodyVariant::Tiled, NbodyPrecision::Float, 1024),
              NbodyAutotuneStore::key(d, NbodyVariant::Tiled, NbodyPrecision::Float, 513));
}

TEST(NbodyAutotuneStore, MemoryOnlyStoreRemembersWithoutAFile) {
    NbodyAutotuneStore store;
    EXPECT_FALSE(store.find("k"));
    store.store("k", {NbodyVariant::Unrolled, 128, 8, 2, 1}, 1.5);
    const auto t = store.find("k");
    ASSERT_TRUE(t);
    EXPECT_EQ(t->config.workGroupSize, 128);
    EXPECT_EQ(t->ms, 1.5);
}

TEST(NbodyAutotuneStore, FileIsReadBackAndBadLinesAreIgnored) {
    const auto file = scratchFile("store.txt");
    std::filesystem::remove(file);
    {
        NbodyAutotuneStore store(file);
        store.store("a", {NbodyVariant::Unrolled, 64, 4, 2, 1}, 2.0);
        store.store("a", {NbodyVariant::Unrolled, 128, 8, 4, 1}, 1.0);  // later lines win
    }
    std::ofstream(file, std::ios::app) << "b\t3 1 1 1 1.0\n"    // wg not a power of two
                                       << "c\t64 1 16 1 1.0\n"  // bodies per item above 8
                                       << "d\t64 1 1 64 1.0\n"  // split above 32
                                       << "e 64 1 1 1 1.0\n"    // no tab
                                       << "f\t64 2 1 1\n";      // no time: 0 (unknown)
    NbodyAutotuneStore again(file);
    const auto a = again.find("a");
    ASSERT_TRUE(a);
    EXPECT_EQ(a->config, (NbodyKernelConfig{NbodyVariant::Unrolled, 128, 8, 4, 1}));
    EXPECT_EQ(a->ms, 1.0);
    for (const char* bad : {"b", "c", "d", "e"})
        EXPECT_FALSE(again.find(bad)) << bad;
    const auto f = again.find("f");
    ASSERT_TRUE(f);
    EXPECT_EQ(f->ms, 0.0);
    std::filesystem::remove_all(file.parent_path());
}
