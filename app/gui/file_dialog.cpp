#include "app/gui/file_dialog.hpp"

#include <imgui.h>

#include <cstring>
#include <filesystem>

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
    std::error_code ec;
    const std::string dir = fs::current_path(ec).string() + "/";
    std::strncpy(path_, dir.c_str(), sizeof path_ - 1);
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
    const bool enter =
        ImGui::InputText("##path", path_, sizeof path_, ImGuiInputTextFlags_EnterReturnsTrue);
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
