#include "compute/core/kernel_reloader.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>

#include "common/error.hpp"
#include "compute/core/kernel_source.hpp"

namespace clviz {

namespace {

// A watcher for the kernel directory and one for each folder under it, each with its path there.
std::vector<std::pair<std::string, std::unique_ptr<FileWatcher>>> watchFolders(
    const std::string& directory, bool forcePolling) {
    namespace fs = std::filesystem;
    const std::vector<std::string> extensions = {".cl", ".clh"};
    std::vector<std::pair<std::string, std::unique_ptr<FileWatcher>>> out;
    out.emplace_back("", std::make_unique<FileWatcher>(directory, extensions, forcePolling));
    std::error_code ec;
    for (fs::recursive_directory_iterator it(directory, ec), end; !ec && it != end;
         it.increment(ec))
        if (it->is_directory(ec))
            out.emplace_back(fs::relative(it->path(), directory).generic_string() + "/",
                             std::make_unique<FileWatcher>(it->path(), extensions, forcePolling));
    return out;
}

}  // namespace

KernelReloader::KernelReloader(ProgramCache& cache, std::string directory, bool forcePolling)
    : cache_(cache),
      directory_(std::move(directory)),
      watchers_(watchFolders(directory_, forcePolling)),
      worker_([this] { work(); }) {}

KernelReloader::~KernelReloader() {
    {
        std::lock_guard lock(mutex_);
        stop_ = true;
        jobs_.clear();
    }
    wake_.notify_all();
    worker_.join();
}

bool KernelReloader::busy() const {
    std::lock_guard lock(mutex_);
    const bool seen = std::any_of(watchers_.begin(), watchers_.end(),
                                  [](const auto& w) { return w.second->pending(); });
    return seen || !jobs_.empty() || running_ > 0 || !done_.empty();
}

void KernelReloader::enqueue(const std::string& file, std::vector<KernelReloadEvent>& events) {
    std::vector<std::string> options = cache_.optionsOf(file);
    if (options.empty()) return;  // not built yet: its first use reads the new source anyway
    Job job;
    job.file = file;
    std::vector<std::string>& read = lastRead_[file];
    read.clear();
    try {
        ExpandedKernelSource expanded = expandKernelIncludes(file, [&](const std::string& name) {
            read.push_back(name);
            return readSourceFile(directory_, "kernel", name);
        });
        job.source = std::move(expanded.text);
        job.includes = std::move(expanded.includes);
    } catch (const Error& e) {
        events.push_back({file, false, false, e.what()});
        return;
    }
    const std::uint64_t hash = fnv1a64(job.source.data(), job.source.size());
    for (const auto& o : options)
        if (cache_.sourceHashOf(file, o) != hash) job.options.push_back(o);
    if (job.options.empty()) return;  // saved without a change
    {
        std::lock_guard lock(mutex_);
        jobs_.push_back(std::move(job));
    }
    wake_.notify_one();
}

void KernelReloader::enqueueDependents(const std::string& changed,
                                       std::vector<KernelReloadEvent>& events) {
    std::vector<std::string> files;
    for (const auto& r : cache_.records())
        if (files.empty() || files.back() != r.file) files.push_back(r.file);
    auto has = [](const std::vector<std::string>& names, const std::string& name) {
        return std::find(names.begin(), names.end(), name) != names.end();
    };
    for (const auto& f : files)
        if (f == changed || has(cache_.includesOf(f), changed) || has(lastRead_[f], changed))
            enqueue(f, events);
}

void KernelReloader::reloadAll() {
    std::vector<KernelReloadEvent> ignored;
    std::vector<std::string> files;
    for (const auto& r : cache_.records())
        if (files.empty() || files.back() != r.file) files.push_back(r.file);
    for (const auto& f : files)
        enqueue(f, ignored);
}

std::vector<KernelReloadEvent> KernelReloader::poll() {
    std::vector<KernelReloadEvent> events;
    for (auto& [folder, watcher] : watchers_)
        for (const auto& name : watcher->changes())
            enqueueDependents(folder + name, events);

    std::deque<Done> finished;
    {
        std::lock_guard lock(mutex_);
        finished.swap(done_);
    }
    for (Done& d : finished) {
        const ProgramBuild* failed = nullptr;
        double ms = 0;
        for (const auto& [options, b] : d.builds) {
            ms += b.ms;
            if (!b.ok()) {
                cache_.recordFailure(d.file, options, b.error);
                if (!failed) failed = &b;
            }
        }
        if (failed) {
            events.push_back({d.file, false, false,
                              failed->error + "\n(the last good build of kernels/" + d.file +
                                  " keeps running)"});
            continue;
        }
        cache_.install(d.file, d.builds);
        char text[160];
        std::snprintf(text, sizeof text, "kernels/%s rebuilt (%zu option set%s, %.0f ms)",
                      d.file.c_str(), d.builds.size(), d.builds.size() == 1 ? "" : "s", ms);
        events.push_back({d.file, true, true, text});
    }
    return events;
}

std::vector<KernelReloadEvent> KernelReloader::waitForReload(double seconds) {
    const auto until = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
    std::vector<KernelReloadEvent> events;
    while (std::chrono::steady_clock::now() < until) {
        auto got = poll();
        events.insert(events.end(), got.begin(), got.end());
        if (!events.empty() && !busy()) break;
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    return events;
}

void KernelReloader::work() {
    std::unique_lock lock(mutex_);
    for (;;) {
        wake_.wait(lock, [&] { return stop_ || !jobs_.empty(); });
        if (stop_) return;
        Job job = std::move(jobs_.front());
        jobs_.pop_front();
        ++running_;
        lock.unlock();
        Done d;
        d.file = job.file;
        for (const auto& o : job.options)
            d.builds.emplace(o, buildProgram(cache_.context(), cache_.device(), job.file,
                                             job.source, o, cache_.disk(), job.includes));
        lock.lock();
        --running_;
        done_.push_back(std::move(d));
    }
}

}  // namespace clviz
