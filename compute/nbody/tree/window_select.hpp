#pragma once
// One window of the tree's global sorted order, for a tree split over several devices (issue 32):
// every device holds all n Morton keys (keys[i], index[i] in body order, as morton_keys writes
// them); TreeWindowSelect copies out the pairs whose rank in the global stable order (by key, ties
// in body order, as TreeForce's stable LSD sort leaves them) lies in [lo, hi), without sorting:
// an exact MSD radix select of the keys of rank lo and rank hi (the splitters), then a stable
// compaction of the pairs between them. The output holds exactly hi - lo pairs in body order, so
// a stable sort of it by key is the global sorted order's positions lo .. hi - 1.
// Kernels: kernels/nbody_tree_window.cl. Every command goes on the ComputeContext's in-order
// queue; enqueue() returns without waiting and reads nothing back.
#include <cstddef>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "compute/core/cl.hpp"
#include "compute/core/command_names.hpp"
#include "compute/core/inline_ptx.hpp"

namespace clviz {

class ComputeContext;

// A splitter as the last enqueue() found it: the pair of rank lo or hi in the global order.
struct WindowSplitter {
    bool exists = false;  // false for rank n (past the last pair)
    unsigned long long key = 0;
    unsigned index = 0;  // index[] of the pair (its body)
    unsigned below = 0;  // pairs with a smaller key
};

class TreeWindowSelect {
  public:
    // Builds the kernels (throws clviz::Error with the build log on failure, or when the device's
    // work-groups or local memory are too small for them).
    explicit TreeWindowSelect(ComputeContext& cc);
    ~TreeWindowSelect();
    TreeWindowSelect(const TreeWindowSelect&) = delete;
    TreeWindowSelect& operator=(const TreeWindowSelect&) = delete;

    // keys (cl_ulong) and index (cl_uint) hold n pairs in body order; outKeys and outIndex receive
    // the hi - lo pairs of global ranks lo .. hi - 1, in body order. The order is by key, then by
    // body POSITION i (what a stable sort gives; equal to index[i] when index[i] == i, as
    // morton_keys writes it). Any 64-bit keys. Grows its work buffers as n needs. Throws
    // clviz::Error unless lo <= hi <= n and n < 2^31. Enqueued only (8 kernels; none for n == 0).
    void enqueue(const cl::Buffer& keys, const cl::Buffer& index, std::size_t n, std::size_t lo,
                 std::size_t hi, const cl::Buffer& outKeys, const cl::Buffer& outIndex);

    // The last enqueue()'s kernels ("window-select", "window-counts", "window-scatter"), for
    // callers that time them.
    std::vector<std::pair<std::string, cl::Event>>& events() { return events_; }
    const CommandNames& commandNames() const { return commandNames_; }  // the events' kernels

    // The device state the last enqueue() left (splitter keys, their counts below, body indices),
    // for a caller that goes on on the device; its layout is WindowState in the kernel file.
    const cl::Buffer& state() const { return state_; }
    // Blocking read of the last enqueue()'s splitters: [0] rank lo, [1] rank hi.
    std::pair<WindowSplitter, WindowSplitter> readSplitters();
    // Whether the last enqueue()'s select copied the keys in question into its list (the cheap
    // path) rather than counting every key once more. Blocking.
    bool lastUsedList();

  private:
    void reserve(std::size_t n);
    void refreshKernels();

    ComputeContext& cc_;
    InlinePtxBuilds ptx_;  // the passes' and the counts' device-wide fences (device_fence.clh)
    struct Kernels;
    std::unique_ptr<Kernels> k_;
    CommandNames commandNames_;
    std::vector<std::pair<std::string, cl::Event>> events_;
    cl::Buffer state_, hist_, tileB_, tileL_, tileH_, listKeys_, listPos_;
    std::size_t capacity_ = 0;  // keys the tile counts and the list are sized for
    std::size_t listCap_ = 0;
    bool histClean_ = false;  // the histograms are zero (each select zeroes what it read)
};

}  // namespace clviz
