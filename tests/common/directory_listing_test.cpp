// The File dialog's folder listing (issue 27: Open was a typed path with nothing to pick from).
#include "common/directory_listing.hpp"
#include "common/format_bytes.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "tests/support/temp_dir.hpp"

namespace clviz {
namespace {

namespace fs = std::filesystem;

TEST(DirectoryListing, FoldersFirstThenFilesInNameOrderWithoutHiddenOnes) {
    test::TempDir dir;
    fs::create_directories(dir.path() / "zeta");
    fs::create_directories(dir.path() / "Alpha");
    fs::create_directories(dir.path() / ".hidden-dir");
    std::ofstream(dir.path() / "b.png") << "12345";
    std::ofstream(dir.path() / "A.hdr") << "";
    std::ofstream(dir.path() / ".hidden") << "x";
    const DirectoryListing l = listDirectory(dir.path().string());
    EXPECT_EQ(l.problem, "");
    ASSERT_EQ(l.entries.size(), 4u);
    EXPECT_EQ(l.entriesSeen, 4u);
    EXPECT_EQ(l.entries[0].name, "Alpha");
    EXPECT_TRUE(l.entries[0].isDirectory);
    EXPECT_EQ(l.entries[1].name, "zeta");
    EXPECT_EQ(l.entries[2].name, "A.hdr");
    EXPECT_FALSE(l.entries[2].isDirectory);
    EXPECT_EQ(l.entries[3].name, "b.png");
    EXPECT_EQ(l.entries[3].bytes, 5u);
}

TEST(DirectoryListing, AFolderLargerThanTheCapKeepsTheCapAndCountsTheRest) {
    test::TempDir dir;
    for (int i = 0; i < 25; ++i)
        std::ofstream(dir.path() / (std::string("f") += std::to_string(i))) << "";
    const DirectoryListing l = listDirectory(dir.path().string(), 10);
    EXPECT_EQ(l.entries.size(), 10u);
    EXPECT_EQ(l.entriesSeen, 25u);
}

TEST(DirectoryListing, AMissingFolderSaysWhy) {
    const DirectoryListing l = listDirectory("/nonexistent-clviz-folder/x");
    EXPECT_TRUE(l.entries.empty());
    EXPECT_NE(l.problem.find("cannot read this folder"), std::string::npos) << l.problem;
}

TEST(DirectoryListing, TypedPathsPointIntoTheirFolder) {
    test::TempDir dir;
    fs::create_directories(dir.path() / "sub");
    const std::string d = dir.path().string();
    EXPECT_EQ(folderOfTypedPath(d + "/sub"), d + "/sub");
    EXPECT_EQ(folderOfTypedPath(d + "/sub/"), d + "/sub");
    EXPECT_EQ(folderOfTypedPath(d + "/sub/new-file.png"), d + "/sub");
    EXPECT_EQ(folderOfTypedPath(d + "/sub/../sub/x"), d + "/sub");
    EXPECT_EQ(folderOfTypedPath("/"), "/");
    EXPECT_EQ(folderOfTypedPath(""), fs::current_path().string());
}

TEST(FormatBytes, BinaryUnitsNamedAsSuch) {
    EXPECT_EQ(formatBytes(0), "0 B");
    EXPECT_EQ(formatBytes(1023), "1023 B");
    EXPECT_EQ(formatBytes(1536), "1.5 KiB");
    EXPECT_EQ(formatBytes(80ull << 30), "80.0 GiB");
}

}  // namespace
}  // namespace clviz
