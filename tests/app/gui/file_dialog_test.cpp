// The File menu's path checks (issue 27: saves went to relative paths and overwrote silently).
#include "app/gui/file_dialog.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

namespace clviz {
namespace {

namespace fs = std::filesystem;

TEST(FileDialog, PathsBecomeAbsolute) {
    const std::string p = absoluteFilePath("shot.png");
    EXPECT_TRUE(fs::path(p).is_absolute()) << p;
    EXPECT_EQ(fs::path(p).filename(), "shot.png");
    EXPECT_EQ(absoluteFilePath("/tmp/a/../b.png"), "/tmp/b.png");
    EXPECT_EQ(absoluteFilePath(""), "");
}

TEST(FileDialog, SavingOverAFileNeedsOverwrite) {
    const fs::path dir = fs::temp_directory_path() / "clviz-file-dialog-test";
    fs::create_directories(dir);
    const std::string existing = (dir / "old.png").string();
    std::ofstream(existing) << "x";
    const std::string fresh = (dir / "new.png").string();
    EXPECT_EQ(filePathProblem(FileActionKind::Save, fresh, false), "");
    EXPECT_NE(filePathProblem(FileActionKind::Save, existing, false).find("exists"),
              std::string::npos);
    EXPECT_EQ(filePathProblem(FileActionKind::Save, existing, true), "");
    EXPECT_NE(filePathProblem(FileActionKind::Save, dir.string(), true).find("directory"),
              std::string::npos);
    EXPECT_NE(filePathProblem(FileActionKind::Open, fresh, false).find("does not exist"),
              std::string::npos);
    EXPECT_EQ(filePathProblem(FileActionKind::Open, existing, false), "");
    EXPECT_NE(filePathProblem(FileActionKind::Directory, existing, false).find("not a directory"),
              std::string::npos);
    EXPECT_EQ(filePathProblem(FileActionKind::Directory, dir.string(), false), "");
    fs::remove_all(dir);
}

}  // namespace
}  // namespace clviz
