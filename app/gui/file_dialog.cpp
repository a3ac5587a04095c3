#include "app/gui/file_dialog.hpp"

#include <imgui.h>

#include <cstring>
#include <filesystem>

#include "common/format_bytes.hpp"
#include "common/quoted_path.hpp"

namespace clviz {

namespace fs = std::filesystem;

std::string absoluteFilePath(const std::string& typed) {
    if (typed.empty()) return "";
    std::error_code ec;
    const fs::path p = fs::absolute(fs::path(typed), ec);
    return ec ? typed : p.lexically_normal().string();
}

std::string filePathProblem(FileActionKind kind, const std::string& path, bool overwrite) {
    if (path.empty()) return "no file name given";
    std::error_code ec;
    const bool exists = fs::exists(path, ec);
    switch (kind) {
        case FileActionKind::Open:
            if (!exists) return quotedPath(path) + " does not exist";
            if (fs::is_directory(path, ec)) return quotedPath(path) + " is a directory";
            return "";
        case FileActionKind::Save:
            if (exists && fs::is_directory(path, ec)) return quotedPath(path) + " is a directory";
            if (exists && !overwrite)
                return quotedPath(path) + " exists: press Overwrite to replace it";
            return "";
        case FileActionKind::Directory:
            if (exists && !fs::is_directory(path, ec))
                return quotedPath(path) + " is a file, not a directory";
            return "";
    }
    return "";
}

void FileDialog::open(const FileAction& action) {
    action_ = action;
    overwrite_ = false;
    justOpened_ = true;
    lastClicked_.clear();
    std::error_code ec;
    setPath(fs::current_path(ec).string() + "/");
    listing_ = DirectoryListing{};  // read afresh: the folder may have changed since last time
}

void FileDialog::setPath(const std::string& path) {
    std::strncpy(path_, path.c_str(), sizeof path_ - 1);
    path_[sizeof path_ - 1] = '\0';
}

bool FileDialog::drawListing() {
    const std::string folder = folderOfTypedPath(path_);
    if (listing_.folder != folder) listing_ = listDirectory(folder);
    const bool foldersOnly = action_->kind == FileActionKind::Directory;
    bool confirmed = false;
    const float rows = 12;
    ImGui::BeginChild(
        "##listing",
        ImVec2(ImGui::GetFontSize() * 30, ImGui::GetTextLineHeightWithSpacing() * rows), true);
    const std::string parentLabel =
        "[..] " + (folder == "/" ? std::string("/") : fs::path(folder).parent_path().string());
    if (folder != "/" && ImGui::Selectable(parentLabel.c_str())) {
        const std::string parent = fs::path(folder).parent_path().string();
        setPath(parent == "/" ? parent : parent + "/");
        overwrite_ = false;
        lastClicked_.clear();
    }
    if (!listing_.problem.empty())
        ImGui::TextColored(ImVec4(1, 0.6f, 0.3f, 1), "%s", listing_.problem.c_str());
    const std::string base = folder == "/" ? folder : folder + "/";
    for (const DirectoryEntry& e : listing_.entries) {
        if (foldersOnly && !e.isDirectory) continue;
        const std::string label = e.isDirectory ? "[dir] " + e.name + "/" : e.name;
        const bool selected = !e.isDirectory && base + e.name == absoluteFilePath(path_);
        if (ImGui::Selectable(label.c_str(), selected, ImGuiSelectableFlags_AllowDoubleClick)) {
            const std::string clicked = base + e.name + (e.isDirectory ? "/" : "");
            setPath(clicked);
            overwrite_ = false;
            // Both clicks on this file: a double-click on a folder must not open the file that
            // takes its row in the folder's own listing.
            confirmed = !e.isDirectory && clicked == lastClicked_ &&
                        ImGui::IsMouseDoubleClicked(ImGuiMouseButton_Left);
            lastClicked_ = clicked;
        }
        if (!e.isDirectory) {
            ImGui::SameLine(ImGui::GetFontSize() * 22);
            ImGui::TextDisabled("%s", formatBytes(e.bytes).c_str());
        }
    }
    if (listing_.entriesSeen > listing_.entries.size())
        ImGui::TextDisabled("(first %zu of %zu entries; type more of the name)",
                            listing_.entries.size(), listing_.entriesSeen);
    ImGui::EndChild();
    return confirmed;
}

std::optional<std::pair<std::string, std::string>> FileDialog::draw() {
    if (!action_) return std::nullopt;
    const char* id = "File##dialog";
    if (justOpened_) ImGui::OpenPopup(id);
    justOpened_ = false;
    std::optional<std::pair<std::string, std::string>> chosen;
    ImGui::SetNextWindowPos(ImGui::GetMainViewport()->GetCenter(), ImGuiCond_Appearing,
                            ImVec2(0.5f, 0.5f));
    if (!ImGui::BeginPopupModal(id, nullptr, ImGuiWindowFlags_AlwaysAutoResize)) {
        action_.reset();  // closed (Esc)
        return std::nullopt;
    }
    ImGui::TextUnformatted(action_->label.c_str());
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 30);
    if (ImGui::IsWindowAppearing()) ImGui::SetKeyboardFocusHere();
    bool enter =
        ImGui::InputText("##path", path_, sizeof path_, ImGuiInputTextFlags_EnterReturnsTrue);
    enter = drawListing() || enter;
    const std::string path = absoluteFilePath(path_);
    const std::string problem = filePathProblem(action_->kind, path, overwrite_);
    if (!problem.empty()) ImGui::TextColored(ImVec4(1, 0.6f, 0.3f, 1), "%s", problem.c_str());
    const bool exists = action_->kind == FileActionKind::Save && !overwrite_ &&
                        problem.find("exists") != std::string::npos;
    const char* okLabel = action_->kind == FileActionKind::Open   ? "Open"
                          : action_->kind == FileActionKind::Save ? "Save"
                                                                  : "Start";
    ImGui::BeginDisabled(!problem.empty() && !exists);
    if (exists ? ImGui::Button("Overwrite") : (ImGui::Button(okLabel) || enter)) {
        if (exists) {
            overwrite_ = true;
        } else if (problem.empty()) {
            chosen = std::make_pair(action_->settingKey, path);
            action_.reset();
            ImGui::CloseCurrentPopup();
        }
    }
    ImGui::EndDisabled();
    ImGui::SameLine();
    if (ImGui::Button("Cancel")) {
        action_.reset();
        ImGui::CloseCurrentPopup();
    }
    ImGui::EndPopup();
    return chosen;
}

}  // namespace clviz
