#pragma once
// The File menu's Open / Save / Record entries: a demo names them (Demo::fileActions), the menu
// lists them, and this small dialog asks for the path: typed, or picked from a listing of the
// folder the typed path points into (click a folder to enter it, a file to take its name,
// double-click to confirm). The path is made absolute before the
// demo sees it, so every notice names the real file; saving over an existing file needs a second
// click on "Overwrite" (nothing is replaced silently).
#include <optional>
#include <string>

#include "common/directory_listing.hpp"

namespace clviz {

enum class FileActionKind { Open, Save, Directory };

struct FileAction {
    std::string label;       // "Open image...", "Save snapshot..."
    std::string settingKey;  // the demo setting it applies: "image", "save", "record"
    FileActionKind kind = FileActionKind::Open;
};

// "" when `path` may be used for `kind`, else why not ("... exists: press Overwrite to replace
// it"); `overwrite` says the user confirmed replacing an existing file.
std::string filePathProblem(FileActionKind kind, const std::string& path, bool overwrite);
// `typed` made absolute against the working directory ("" stays "").
std::string absoluteFilePath(const std::string& typed);

class FileDialog {
  public:
    void open(const FileAction& action);
    // Draws the dialog while it is open; returns the setting to apply (key, absolute path) when
    // the user confirmed.
    std::optional<std::pair<std::string, std::string>> draw();

  private:
    // The listing under the path field; returns true when an entry was double-clicked.
    bool drawListing();
    void setPath(const std::string& path);

    std::optional<FileAction> action_;
    DirectoryListing listing_;  // of folderOfTypedPath(path_), re-read when that folder changes
    std::string lastClicked_;   // the entry the last click in the listing chose
    char path_[1024] = {};
    bool overwrite_ = false;
    bool justOpened_ = false;
};

}  // namespace clviz
