#pragma once
// Watches one directory for changed files (kernels/*.cl, shaders/*): inotify on Linux, else (or
// with CLVIZ_WATCH=poll, or when inotify cannot be set up) a scan of modification times a few
// times a second. Editors save in place or write a new file and rename it over the old one; both
// are seen because the directory, not each file, is watched. Non-blocking: call changes() once a
// frame. One thread.
#include <chrono>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

namespace clviz {

class FileWatcher {
  public:
    // Throws clviz::Error when `directory` is not a readable directory.
    FileWatcher(std::filesystem::path directory, std::vector<std::string> extensions,
                bool forcePolling = false);
    ~FileWatcher();
    FileWatcher(const FileWatcher&) = delete;
    FileWatcher& operator=(const FileWatcher&) = delete;

    // Names (not paths) of watched files written since the last call, each once, reported when
    // they have been quiet for a moment (so a save in several writes is read once, whole).
    std::vector<std::string> changes();
    // True while a change has been seen but not reported yet.
    bool pending() const { return !lastEvent_.empty(); }

    const std::filesystem::path& directory() const { return directory_; }
    std::string mechanism() const;  // "inotify" or "polling every 250 ms"

  private:
    using Clock = std::chrono::steady_clock;
    struct Stamp {
        std::filesystem::file_time_type time;
        std::uintmax_t size = 0;
        bool operator==(const Stamp&) const = default;
    };
    bool watched(const std::string& name) const;
    void readInotify();
    void scan();
    std::map<std::string, Stamp> snapshot() const;

    std::filesystem::path directory_;
    std::vector<std::string> extensions_;
    int fd_ = -1;  // inotify descriptor, -1 when polling
    std::map<std::string, Stamp> stamps_;
    Clock::time_point lastScan_;
    std::map<std::string, Clock::time_point> lastEvent_;
};

}  // namespace clviz
