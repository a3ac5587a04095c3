#include "compute/interop/buffer_bridge.hpp"

#include <chrono>

#include "common/elapsed.hpp"
#include "common/error.hpp"
#include "compute/core/cl_boundary.hpp"
#include "compute/core/compute_context.hpp"
#include "compute/core/profiling.hpp"
#include "compute/interop/bridge_paths.hpp"

namespace clviz {

namespace {

using Clock = std::chrono::steady_clock;

}  // namespace

BufferBridge::BufferBridge(ComputeContext& cc, std::size_t capacity, int slots)
    : cc_(cc), capacity_(capacity), slotCount_(slots) {
    if (capacity == 0) throw Error("interop buffer of 0 bytes");
    if (slots < 1 || slots > 3) throw Error("interop bridge needs 1 to 3 slots");
}

bool BufferBridge::complete(const cl::Event& e) {
    return e() == nullptr || eventComplete(e, "the interop copy failed on the device");
}

void BufferBridge::publish(const cl::Buffer& source, std::size_t bytes) {
    const auto t0 = Clock::now();
    if (bytes > capacity_)
        throw Error("interop publish of " + std::to_string(bytes) + " bytes into a " +
                    std::to_string(capacity_) + "-byte bridge");
    Slot& slot = slots_[next_];
    slot.sequence = 0;  // not drawable until the new copy completes
    clBoundary(interopPathName(path()), [&] {
        enqueueCopy(slot, source, bytes);
        cc_.queue().flush();
    });
    slot.sequence = ++sequence_;
    slot.bytes = bytes;
    slot.timed = false;
    slot.prepared = false;
    next_ = (next_ + 1) % slotCount_;
    pendingHostMs_ += msSince(t0);
}

void BufferBridge::account(Slot& slot) {
    if (slot.timed) return;
    slot.timed = true;
    BridgeTiming t;
    t.bytes = slot.bytes;
    try {
        if (slot.first() != nullptr && slot.done() != nullptr)
            t.deviceMs = slot.first() == slot.done() ? eventMilliseconds(slot.done)
                                                     : spanMilliseconds(slot.first, slot.done);
    } catch (const cl::Error&) {
        t.deviceMs = 0;  // a queue without profiling: no device time to show
    }
    t.hostMs = pendingHostMs_;
    pendingHostMs_ = 0;
    lastTiming_ = t;
}

int BufferBridge::slotToShow() {
    const std::uint64_t required = sequence_ > std::uint64_t(latency_) ? sequence_ - latency_ : 1;
    // The oldest slot that is new enough; wait for it if the device is not there yet.
    int wait = -1;
    for (int i = 0; i < slotCount_; ++i) {
        const Slot& s = slots_[i];
        if (s.sequence >= required && (wait < 0 || s.sequence < slots_[wait].sequence)) wait = i;
    }
    if (wait >= 0 && !complete(slots_[wait].done)) slots_[wait].done.wait();
    // Then the newest that is complete (at least the one just waited for).
    int best = -1;
    for (int i = 0; i < slotCount_; ++i) {
        const Slot& s = slots_[i];
        if (s.sequence == 0 || !complete(s.done)) continue;
        if (best < 0 || s.sequence > slots_[best].sequence) best = i;
    }
    return best;
}

int BufferBridge::newestSlot() const {
    int best = -1;
    for (int i = 0; i < slotCount_; ++i)
        if (slots_[i].sequence != 0 && (best < 0 || slots_[i].sequence > slots_[best].sequence))
            best = i;
    return best;
}

BridgeView BufferBridge::view() {
    const auto t0 = Clock::now();
    if (sequence_ == 0) return {};
    return clBoundary(
        [&] { return interopPathName(path()); },
        [&]() -> BridgeView {
            const bool onGpu = takeTurns_ && ordersOnGpu();
            const int best = onGpu ? newestSlot() : slotToShow();
            if (best < 0) return {};
            Slot& slot = slots_[best];
            if (!slot.prepared) {
                prepareForDraw(slot);
                slot.prepared = true;
            }
            pendingHostMs_ += msSince(t0);
            // Device time needs the copy finished: on the GPU-ordered path, account the newest copy
            // that has (never waiting for one).
            if (!onGpu) {
                account(slot);
            } else {
                for (int i = 0; i < slotCount_; ++i)
                    if (slots_[i].sequence != 0 && !slots_[i].timed && complete(slots_[i].done))
                        account(slots_[i]);
            }
            shown_ = best;
            return {slot.buffer, slot.offset, slot.sequence, slot.bytes};
        });
}

void BufferBridge::orderAfterDrawing() {
    if (!ordersOnGpu() || shown_ < 0) return;
    clBoundary(interopPathName(path()), [&] { enqueueWaitForDrawing(slots_[shown_]); });
}

void BufferBridge::drawn() {
    if (shown_ < 0) return;
    Slot& slot = slots_[shown_];
    if (slot.readFence) glDeleteSync(slot.readFence);
    slot.readFence = glFenceSync(GL_SYNC_GPU_COMMANDS_COMPLETE, 0);
}

void BufferBridge::finish() {
    clBoundary("waiting for the interop copy", [&] {
        for (int i = 0; i < slotCount_; ++i)
            if (slots_[i].done() != nullptr) slots_[i].done.wait();
    });
}

void BufferBridge::waitReadFence(Slot& slot) {
    if (!slot.readFence) return;
    for (;;) {
        GLenum r = glClientWaitSync(slot.readFence, GL_SYNC_FLUSH_COMMANDS_BIT, 1'000'000'000);
        if (r == GL_ALREADY_SIGNALED || r == GL_CONDITION_SATISFIED) break;
        if (r == GL_WAIT_FAILED) {
            glDeleteSync(slot.readFence);
            slot.readFence = nullptr;
            throw Error("glClientWaitSync failed while waiting for GL to finish drawing");
        }
    }
    glDeleteSync(slot.readFence);
    slot.readFence = nullptr;
}

void BufferBridge::drain() {
    // Never throws: called from destructors, where the device may already be in a bad state.
    for (int i = 0; i < slotCount_; ++i) {
        try {
            if (slots_[i].done() != nullptr) slots_[i].done.wait();
        } catch (...) {
        }
        try {
            waitReadFence(slots_[i]);
        } catch (...) {
        }
        slots_[i] = Slot{};
    }
}

std::unique_ptr<BufferBridge> createHostCopyBridge(ComputeContext& cc, std::size_t capacityBytes,
                                                   bool persistentMapping,
                                                   HostCopyStaging staging) {
    const bool pinned = staging == HostCopyStaging::Pinned ||
                        (staging == HostCopyStaging::Auto && cc.info().kind != DeviceKind::Cpu);
    return makeHostCopyBridge(cc, capacityBytes, persistentMapping, pinned);
}

std::unique_ptr<BufferBridge> createBufferBridge(InteropPath path, ComputeContext& cc,
                                                 std::size_t capacityBytes,
                                                 const InteropCaps& caps) {
    switch (path) {
        case InteropPath::HostCopy:
            if (caps.glBufferStorage) {
                try {
                    return createHostCopyBridge(cc, capacityBytes, true, HostCopyStaging::Auto);
                } catch (const Error&) {
                    // A driver that refuses the persistent mapping still has glBufferSubData.
                }
            }
            return createHostCopyBridge(cc, capacityBytes, false, HostCopyStaging::Auto);
        case InteropPath::GlSharing:
            return makeGlSharingBridge(cc, capacityBytes, caps);
        case InteropPath::ExternalMemory:
            return makeExternalMemoryBridge(cc, capacityBytes, caps);
    }
    throw Error("unknown interop path");
}

}  // namespace clviz
