#pragma once
// Hands an OpenCL buffer to OpenGL every frame by one of the interop paths (interop_path.hpp).
//
// The bridge keeps a small ring of GL-visible slots. publish() enqueues this frame's copy on the
// compute queue and returns at once; view() says which slot GL should draw. With latency 1 (the
// default) view() only waits for the publish before the newest, so while GL draws frame k the
// device already computes frame k+1: a frame then costs max(compute, render) instead of the sum.
// A GL fence after each draw (drawn()) keeps the next publish from overwriting a slot GL still
// reads.
//
//   host-copy, ARB_buffer_storage: one persistently mapped, coherent GL buffer with three regions;
//       clEnqueueReadBuffer writes straight into the mapped pointer (no staging copy).
//   host-copy, no buffer storage (GL < 4.4): the read lands in host memory, then glBufferSubData.
//   gl-sharing: three GL buffers wrapped with clCreateFromGLBuffer; acquire, device-side
//       clEnqueueCopyBuffer from the simulation's buffer, release. The GL->CL hand-over waits on
//       the slot's GL fence through clCreateEventFromGLsyncKHR (cl_khr_gl_event) or on the CPU;
//       the CL->GL hand-over waits on the release event.
//   external-memory: Vulkan-allocated device memory imported by GL and CL (external_memory.hpp),
//       three slots in it; a device-side clEnqueueCopyBuffer per frame, no acquire/release.
//
// Errors (a failing registration or acquire) throw clviz::Error; the caller then falls back to
// host copy and shows the message.
#include <glad/gl.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "compute/core/cl.hpp"
#include "compute/interop/interop_path.hpp"

namespace clviz {

class ComputeContext;

// What GL should draw: bytes of the published data start at `offset` in `buffer`.
struct BridgeView {
    GLuint buffer = 0;
    GLintptr offset = 0;
    std::uint64_t sequence = 0;  // which publish (1, 2, ...); 0 = nothing published yet
    std::size_t bytes = 0;
    bool valid() const { return buffer != 0 && sequence != 0; }
};

// Where the hand-over's time went in the last completed publish.
struct BridgeTiming {
    double deviceMs = 0;  // CL profiling: the read into GL memory, or acquire..release
    double hostMs = 0;    // CPU wall time inside publish()+view() for that frame (fences, uploads)
    std::size_t bytes = 0;
};

class BufferBridge {
  public:
    virtual ~BufferBridge() = default;
    BufferBridge(const BufferBridge&) = delete;
    BufferBridge& operator=(const BufferBridge&) = delete;

    virtual InteropPath path() const = 0;
    // "host copy: persistently mapped GL buffer, 3 slots" - for the Interop panel.
    virtual std::string description() const = 0;
    std::size_t capacity() const { return capacity_; }

    // Enqueues a copy of the first `bytes` (<= capacity) of `source` on the context's queue, after
    // everything already enqueued there. Returns without waiting for the device.
    void publish(const cl::Buffer& source, std::size_t bytes);
    // The slot GL draws this frame (see latency). Waits only when the data it must show is not
    // there yet. Invalid until the first publish.
    BridgeView view();
    // Call once the draw calls that read the last view() are issued: fences that slot.
    void drawn();
    // Waits for every pending publish; view() then returns the newest.
    void finish();

    // 1 (default): view() may show the publish before the newest, so compute and drawing overlap.
    // 0: view() always waits for the newest (tests, single stepping where it matters).
    void setLatency(int frames) { latency_ = frames > 0 ? 1 : 0; }
    int latency() const { return latency_; }
    // With turns on, a bridge that ordersOnGpu() shows the newest publish without waiting on the
    // CPU (GL's draw waits for the copy on the device instead); the caller enqueues its next
    // compute after orderAfterDrawing(), so GL and CL take turns. Off (default): latency rules.
    void setTakeTurns(bool on) { takeTurns_ = on; }

    // Whether GL's draws and CL's copies are ordered on the GPU (external memory with exported
    // semaphores). Then a caller can also put its next compute after this frame's drawing on
    // the GPU (orderAfterDrawing), so that GL and CL take turns instead of preempting each other.
    virtual bool ordersOnGpu() const { return false; }
    // CL commands enqueued from now on wait on the GPU until the GL commands issued so far
    // (this frame's drawing) have finished. Nothing unless ordersOnGpu().
    void orderAfterDrawing();

    BridgeTiming lastTiming() const { return lastTiming_; }

  protected:
    struct Slot {
        GLuint buffer = 0;
        GLintptr offset = 0;
        std::uint64_t sequence = 0;  // 0 = never written
        std::size_t bytes = 0;
        cl::Event done;              // completion of the copy into this slot
        cl::Event first;             // first command of the copy (timing span)
        GLsync readFence = nullptr;  // after the last draw that read this slot
        bool timed = false;          // its device time went into lastTiming_ already
        bool prepared = false;       // prepareForDraw() ran for this copy
    };

    BufferBridge(ComputeContext& cc, std::size_t capacity, int slots);

    // Enqueues the copy into `slot` (its GL fence, if any, is still set: the path decides how to
    // wait for it) and sets slot.first / slot.done.
    virtual void enqueueCopy(Slot& slot, const cl::Buffer& source, std::size_t bytes) = 0;
    // Called by view() once per copy before GL draws it: after slot.done completed (the
    // glBufferSubData path), or at once where ordersOnGpu() (GL then waits on the device).
    virtual void prepareForDraw(Slot& /*slot*/) {}
    // orderAfterDrawing() for the slot GL drew last (ordersOnGpu() bridges).
    virtual void enqueueWaitForDrawing(Slot& /*slot*/) {}
    // Waits on the CPU until GL finished reading the slot, and drops the fence.
    static void waitReadFence(Slot& slot);
    // Waits for every copy and fence; derived destructors call it before freeing GL memory.
    void drain();

    ComputeContext& cc_;
    std::size_t capacity_;
    Slot slots_[3];
    int slotCount_;

  private:
    static bool complete(const cl::Event& e);
    void account(Slot& slot);
    int slotToShow();        // waits on the CPU for what latency_ requires
    int newestSlot() const;  // ordersOnGpu(): the newest publish, finished or not

    int next_ = 0;
    int shown_ = -1;
    std::uint64_t sequence_ = 0;
    int latency_ = 1;
    bool takeTurns_ = false;
    double pendingHostMs_ = 0;
    BridgeTiming lastTiming_;
};

// Creates the bridge for `path` with room for `capacityBytes` (> 0). gl-sharing and
// external-memory throw clviz::Error when they cannot be set up. GL context current.
std::unique_ptr<BufferBridge> createBufferBridge(InteropPath path, ComputeContext& cc,
                                                 std::size_t capacityBytes,
                                                 const InteropCaps& caps);

// How host copy reaches GL memory. Auto: straight into the persistent GL mapping on CPU devices
// (one copy), through pinned staging memory on GPUs (asynchronous DMA, then a memcpy).
enum class HostCopyStaging { Auto, Direct, Pinned };

// Host copy with explicit choices (tests, benchmarks). `persistentMapping` needs caps'
// glBufferStorage; without it the bytes go through glBufferSubData.
std::unique_ptr<BufferBridge> createHostCopyBridge(ComputeContext& cc, std::size_t capacityBytes,
                                                   bool persistentMapping, HostCopyStaging staging);

}  // namespace clviz
