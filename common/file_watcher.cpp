#include "common/file_watcher.hpp"

#include <sys/inotify.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>

#include "common/error.hpp"

namespace clviz {

namespace {

constexpr auto kSettle = std::chrono::milliseconds(60);
constexpr auto kScanInterval = std::chrono::milliseconds(250);

}  // namespace

FileWatcher::FileWatcher(std::filesystem::path directory, std::vector<std::string> extensions,
                         bool forcePolling)
    : directory_(std::move(directory)), extensions_(std::move(extensions)) {
    std::error_code ec;
    if (!std::filesystem::is_directory(directory_, ec))
        throw Error("cannot watch " + directory_.string() + ": not a directory");
    if (const char* env = std::getenv("CLVIZ_WATCH"); env && std::strcmp(env, "poll") == 0)
        forcePolling = true;
    if (!forcePolling) {
        fd_ = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
        if (fd_ >= 0 && inotify_add_watch(fd_, directory_.c_str(),
                                          IN_CLOSE_WRITE | IN_MOVED_TO | IN_MODIFY) < 0) {
            ::close(fd_);
            fd_ = -1;  // e.g. out of watches: fall back to polling
        }
    }
    if (fd_ < 0) {
        stamps_ = snapshot();
        lastScan_ = Clock::now();
    }
}

FileWatcher::~FileWatcher() {
    if (fd_ >= 0) ::close(fd_);
}

std::string FileWatcher::mechanism() const {
    return fd_ >= 0 ? "inotify" : "polling every 250 ms";
}

bool FileWatcher::watched(const std::string& name) const {
    if (name.empty() || name[0] == '.') return false;  // editors' swap and temp files
    for (const auto& ext : extensions_)
        if (name.size() > ext.size() &&
            name.compare(name.size() - ext.size(), ext.size(), ext) == 0)
            return true;
    return false;
}

void FileWatcher::readInotify() {
    alignas(inotify_event) char buffer[8192];
    for (;;) {
        const ssize_t got = ::read(fd_, buffer, sizeof buffer);
        if (got <= 0) return;  // EAGAIN: nothing more for now
        for (char* p = buffer; p < buffer + got;) {
            const auto* event = reinterpret_cast<const inotify_event*>(p);
            if (event->len) {
                const std::string name = event->name;
                if (watched(name)) lastEvent_[name] = Clock::now();
            }
            p += sizeof(inotify_event) + event->len;
        }
    }
}

std::map<std::string, FileWatcher::Stamp> FileWatcher::snapshot() const {
    std::map<std::string, Stamp> out;
    std::error_code ec;
    for (const auto& entry : std::filesystem::directory_iterator(directory_, ec)) {
        const std::string name = entry.path().filename().string();
        if (!watched(name)) continue;
        Stamp s;
        s.time = entry.last_write_time(ec);
        s.size = entry.file_size(ec);
        if (!ec) out[name] = s;
    }
    return out;
}

void FileWatcher::scan() {
    if (Clock::now() - lastScan_ < kScanInterval) return;
    lastScan_ = Clock::now();
    auto now = snapshot();
    for (const auto& [name, stamp] : now)
        if (auto it = stamps_.find(name); it == stamps_.end() || !(it->second == stamp))
            lastEvent_[name] = Clock::now();
    stamps_ = std::move(now);
}

std::vector<std::string> FileWatcher::changes() {
    if (fd_ >= 0)
        readInotify();
    else
        scan();
    std::vector<std::string> ready;
    const auto now = Clock::now();
    for (auto it = lastEvent_.begin(); it != lastEvent_.end();) {
        if (now - it->second >= kSettle) {
            ready.push_back(it->first);
            it = lastEvent_.erase(it);
        } else {
            ++it;
        }
    }
    return ready;
}

}  // namespace clviz
