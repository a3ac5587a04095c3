// The File menu's path checks (issue 27: saves went to relative paths and overwrote silently).
#include "app/gui/file_dialog.hpp"

#include <gtest/gtest.h>

#include <imgui_internal.h>

#include <filesystem>
#include <fstream>

#include "tests/app/gui/headless_imgui.hpp"
#include "tests/support/temp_dir.hpp"

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

// The dialog driven with the mouse: a click on a folder of the listing enters it, a double-click on
// a file confirms it (the path returned is absolute).
class ClickedDialog {
  public:
    ClickedDialog() : imgui_(ImVec2(1280, 800)) {}
    std::optional<std::pair<std::string, std::string>> frame() {
        ImGui::NewFrame();
        auto chosen = dialog.draw();
        ImGui::Render();
        return chosen;
    }
    // The centre of the listing's row `row` (row 0 is the parent folder), as last drawn.
    ImVec2 row(int row) const {
        for (ImGuiWindow* w : ImGui::GetCurrentContext()->Windows)
            if (std::string(w->Name).find("##listing") != std::string::npos) {
                const float h = ImGui::GetTextLineHeightWithSpacing();
                return ImVec2(w->Pos.x + w->Size.x * 0.3f,
                              w->Pos.y + ImGui::GetStyle().WindowPadding.y + h * (row + 0.5f));
            }
        ADD_FAILURE() << "no listing window";
        return ImVec2(0, 0);
    }
    std::optional<std::pair<std::string, std::string>> click(ImVec2 at) {
        ImGuiIO& io = ImGui::GetIO();
        io.MousePos = at;
        auto a = frame();
        io.MouseDown[0] = true;
        auto b = frame();
        io.MouseDown[0] = false;
        auto c = frame();
        return a ? a : b ? b : c;
    }
    FileDialog dialog;

  private:
    test::HeadlessImGui imgui_;
};

TEST(FileDialog, ClickingTheListingEntersFoldersAndADoubleClickOpensAFile) {
    test::TempDir dir;
    fs::create_directories(dir.path() / "sub");
    std::ofstream(dir.path() / "sub" / "inner.png") << "png";
    std::ofstream(dir.path() / "top.png") << "png";
    const fs::path before = fs::current_path();
    fs::current_path(dir.path());
    ClickedDialog d;
    d.dialog.open(FileAction{"Open image...", "image", FileActionKind::Open});
    EXPECT_FALSE(d.frame());
    EXPECT_FALSE(d.frame());
    EXPECT_FALSE(d.click(d.row(1)));        // "sub/" (folders first)
    EXPECT_FALSE(d.frame());                // the listing of sub/ is read on this frame
    EXPECT_FALSE(d.click(d.row(1)));        // "inner.png": one click selects
    for (int i = 0; i < 30; ++i)  // half a second: the next two clicks are a pair of their own
        EXPECT_FALSE(d.frame());
    EXPECT_FALSE(d.click(d.row(1)));
    const auto chosen = d.click(d.row(1));  // the second click on it, a double-click, opens
    fs::current_path(before);
    ASSERT_TRUE(chosen);
    EXPECT_EQ(chosen->first, "image");
    EXPECT_EQ(chosen->second, (dir.path() / "sub" / "inner.png").string());
}

TEST(FileDialog, ADoubleClickNeverOverwritesAFile) {
    test::TempDir dir;
    std::ofstream(dir.path() / "old.png") << "png";
    const fs::path before = fs::current_path();
    fs::current_path(dir.path());
    ClickedDialog d;
    d.dialog.open(FileAction{"Save result...", "save", FileActionKind::Save});
    EXPECT_FALSE(d.frame());
    EXPECT_FALSE(d.frame());
    EXPECT_FALSE(d.click(d.row(1)));
    EXPECT_FALSE(d.click(d.row(1)));  // the double-click asks for Overwrite instead
    EXPECT_FALSE(d.frame());
    fs::current_path(before);
}

}  // namespace
}  // namespace clviz
