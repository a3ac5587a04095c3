#include "compute/nbody/tree/split_build.hpp"

#include <atomic>
#include <string>
#include <thread>
#include <utility>

#include "common/error.hpp"
#include "compute/nbody/tree/tree_force.hpp"

namespace clviz {

namespace {

// What each device sent each other, from the sender's thread to the receiver's.
class EssentialMailbox {
  public:
    explicit EssentialMailbox(std::size_t devices)
        : sendsDone(devices), p_(devices), posts_(devices * devices) {}

    void post(std::size_t from, std::size_t to, const TreeForce::Essential& records,
              const cl::Event& copied) {
        Post& post = posts_[from * p_ + to];
        post.records = records;
        post.copied = copied;
        post.posted.store(true, std::memory_order_release);
    }
    bool posted(std::size_t from, std::size_t to) const {
        return posts_[from * p_ + to].posted.load(std::memory_order_acquire);
    }
    // What `from` posted `to`, once its copies out are done; null before.
    const TreeForce::Essential* arrived(std::size_t from, std::size_t to) const {
        const Post& post = posts_[from * p_ + to];
        if (!post.posted.load(std::memory_order_acquire)) return nullptr;
        if (post.copied()) {
            const cl_int status = post.copied.getInfo<CL_EVENT_COMMAND_EXECUTION_STATUS>();
            if (status < 0) throw cl::Error(status, "essential records' copy out");
            if (status != CL_COMPLETE) return nullptr;
        }
        return &post.records;
    }
    // Calls step() until it returns true, a short sleep between calls; throws where another
    // device failed (`failed`) or nothing came for kPatience (`device`: whose turn, or p for
    // every device's).
    void until(std::size_t device, const std::function<bool()>& step) const {
        const auto start = std::chrono::steady_clock::now();
        while (!step()) {
            if (failed)
                throw Error("the essential records' exchange stopped: another device failed");
            if (std::chrono::steady_clock::now() - start > kPatience)
                throw Error("the essential records' exchange waited " +
                            std::to_string(kPatience.count()) + " s" +
                            (device < p_ ? " on device " + std::to_string(device) : "") +
                            " for records that never came (a bug)");
            std::this_thread::sleep_for(std::chrono::microseconds(20));
        }
    }

    std::vector<std::atomic<bool>> sendsDone;  // each device sent all it had
    std::atomic<bool> failed{false};

  private:
    static constexpr std::chrono::seconds kPatience{300};
    struct Post {
        std::atomic<bool> posted{false};
        TreeForce::Essential records;
        cl::Event copied;
    };
    std::size_t p_;
    std::vector<Post> posts_;  // [from * p + to]
};

struct Progress {  // of one device's part of the exchange after the share
    bool sent = false, grafted = false;
    std::vector<bool> taken;  // each other domain's records received
};

}  // namespace

void exchangeEssentialTrees(const std::vector<TreeForce*>& trees, const ForEachDevice& forEach,
                            const ExchangeLap& lap) {
    const std::size_t p = trees.size();
    const ForEachDevice serial = [p](const std::function<void(std::size_t)>& task) {
        for (std::size_t d = 0; d < p; ++d)
            task(d);
    };
    const ForEachDevice& run = forEach ? forEach : serial;
    const char* phase = "";
    const auto each = [&](const std::function<void(std::size_t)>& task) {
        run([&](std::size_t d) {
            const auto start = std::chrono::steady_clock::now();
            task(d);
            if (lap) lap(d, phase, start, std::chrono::steady_clock::now());
        });
    };
    // What each domain sends every other: its prefix table, its subtrees' roots and its cells.
    std::vector<TreeForce::DomainShare> shares(p);
    phase = "share";
    each([&](std::size_t d) { shares[d] = trees[d]->domainShare(); });
    std::vector<std::vector<cl_int>> tables;
    for (const auto& s : shares)
        tables.push_back(s.table);
    // Each domain's nodes across domains, and what it has for every other domain's walk
    // (sent[d][e]: from d to e).
    std::vector<std::vector<cl_float4>> across(p);
    std::vector<std::vector<TreeForce::Essential>> sent(p);
    std::vector<const cl_uint*> index(p);
    std::vector<const std::vector<cl_float4>*> cells;
    for (const auto& s : shares)
        cells.push_back(&s.cells);
    // Each domain's slice of the sorted order (read out during its build, so in by now) in the
    // same phase: a phase of its own cost the threads' hand-over, about 0.1 ms a step.
    phase = "across and essential";
    each([&](std::size_t d) {
        trees[d]->buildAcross(tables);  // enqueued: the essential kernels follow it at once
        trees[d]->beginEssential(cells);
        across[d] = trees[d]->acrossRecords();
        index[d] = trees[d]->domainIndex();
    });
    std::vector<const std::vector<cl_float4>*> acrossAll, rootsAll;
    std::vector<const std::vector<cl_int2>*> rootBodiesAll;
    for (std::size_t d = 0; d < p; ++d) {
        acrossAll.push_back(&across[d]);
        rootsAll.push_back(&shares[d].roots);
        rootBodiesAll.push_back(&shares[d].rootBodies);
    }
    // Each device's records for each other go out as its kernels find them, and each device
    // takes each other's in as soon as they reach the host (not once every device's are there:
    // session 14's timeline showed the copies in waiting 0.5 ms for the last sender). Only the
    // device's own thread enqueues on its queues.
    EssentialMailbox box(p);
    std::vector<Progress> progress(p);
    const auto advance = [&](std::size_t d) {
        Progress& me = progress[d];
        if (!me.sent) {
            me.sent = trees[d]->sendEssential(
                [&](std::size_t to, const TreeForce::Essential& records, const cl::Event& copied) {
                    box.post(d, to, records, copied);
                });
            if (me.sent) box.sendsDone[d].store(true, std::memory_order_release);
        }
        if (!me.grafted) {  // after the first records went out: their copies start sooner
            trees[d]->graftAcross(acrossAll, rootsAll, rootBodiesAll);
            me.grafted = true;
        }
        bool all = true;
        for (std::size_t from = 0; from < p; ++from) {
            if (from == d || me.taken[from]) continue;
            const bool done = box.sendsDone[from].load(std::memory_order_acquire);
            if (const TreeForce::Essential* records = box.arrived(from, d)) {
                trees[d]->receiveEssential(from, *records);
                me.taken[from] = true;
            } else if (!(done && !box.posted(from, d))) {
                all = false;  // still to come
            }
        }
        if (!all || !me.sent) return false;
        trees[d]->finishGraft(index);
        return true;
    };
    for (Progress& me : progress)
        me.taken.assign(p, false);
    phase = "graft";
    if (forEach) {
        each([&](std::size_t d) {
            try {
                box.until(d, [&] { return advance(d); });
            } catch (...) {
                box.failed = true;  // the others stop waiting for this device
                throw;
            }
        });
    } else {  // one thread: every device a turn until all are done
        const auto start = std::chrono::steady_clock::now();
        std::vector<bool> done(p, false);
        box.until(p, [&] {
            bool all = true;
            for (std::size_t d = 0; d < p; ++d) {
                if (!done[d]) done[d] = advance(d);
                all = all && done[d];
            }
            return all;
        });
        if (lap)
            for (std::size_t d = 0; d < p; ++d)
                lap(d, phase, start, std::chrono::steady_clock::now());
    }
}

}  // namespace clviz
