// external-memory interop: one Vulkan allocation with three slots, imported into GL as one buffer
// and into CL as one buffer. Each frame is one device-side clEnqueueCopyBuffer from the
// simulation's buffer into a slot; GL draws the slot straight from the same device memory.
//
// Synchronisation, where GL_EXT_semaphore_fd and cl_khr_external_semaphore_opaque_fd both exist:
// exported semaphores (external_sync.hpp) order the copy after GL's last draw of the slot and
// GL's next draw after the copy, on the GPU; GL is told the memory changed. Elsewhere it is
// finish-based: CL->GL, view() waits on the copy's CL event before GL draws the slot (the device
// has then finished writing it); GL->CL, the slot's GL fence is waited on the CPU before CL
// overwrites it. With three slots and one frame of latency both waits are normally already
// satisfied, so neither stalls the pipeline; but GL is not told the memory changed, which drawing
// has never needed on NVIDIA while a direct glGetBufferSubData then returns stale bytes.
#include "common/error.hpp"
#include "compute/core/compute_context.hpp"
#include "compute/interop/bridge_paths.hpp"
#include "compute/interop/external_memory.hpp"
#include "compute/interop/external_sync.hpp"

namespace clviz {

namespace {

constexpr int kSlots = 3;

class ExternalMemoryBridge final : public BufferBridge {
  public:
    ExternalMemoryBridge(ComputeContext& cc, std::size_t capacity, const InteropCaps& caps)
        : BufferBridge(cc, capacity, kSlots) {
        if (!caps.clExternalMemoryFd)
            throw Error("the OpenCL device has no cl_khr_external_memory_opaque_fd");
        if (!caps.glMemoryObjectFd) throw Error("the GL context has no GL_EXT_memory_object_fd");
        const std::size_t stride = slotStride(capacity);
        auto exporter = exporterFor(cc);
        shared_ = std::make_unique<ExternalBuffer>(cc, exporter, stride * kSlots);
        for (int i = 0; i < kSlots; ++i) {
            slots_[i].buffer = shared_->glBuffer();
            slots_[i].offset = GLintptr(stride * std::size_t(i));
        }
        syncWhy_ = caps.externalSemaphores ? "" : caps.externalSyncProbe;
        if (caps.externalSemaphores) {
            try {
                sync_ = std::make_unique<ExternalSync>(cc, *exporter, kSlots, shared_->glBuffer());
            } catch (const std::exception& e) {
                syncWhy_ = e.what();  // still zero-copy, synchronised on the CPU
            }
        }
    }

    ~ExternalMemoryBridge() override {
        drain();  // no copy in flight, GL done reading
        if (sync_) {
            cc_.queue().finish();  // no semaphore operation pending on either side
            glFinish();
            sync_.reset();
        }
        shared_.reset();  // CL, then GL, then the Vulkan memory (ExternalBuffer's order)
    }

    InteropPath path() const override { return InteropPath::ExternalMemory; }
    bool ordersOnGpu() const override { return sync_ != nullptr; }
    std::string description() const override {
        const std::string head = "external-memory: Vulkan memory on " + shared_->deviceName() +
                                 " imported by GL and CL, device copy into 3 slots; ";
        if (sync_) return head + "sync by exported semaphores on the GPU";
        return head + "sync by CL event and GL fence on the CPU (" +
               (syncWhy_.empty() ? std::string("no exported semaphores") : syncWhy_) + ")";
    }

  protected:
    void enqueueCopy(Slot& slot, const cl::Buffer& source, std::size_t bytes) override {
        const int index = int(&slot - slots_);
        if (sync_) {
            if (slot.readFence) glDeleteSync(slot.readFence);  // the semaphore replaces it
            slot.readFence = nullptr;
            sync_->beforeCl(index);  // the copy waits on the GPU for GL's draws of this slot
        } else {
            waitReadFence(slot);  // GL has finished drawing this slot's previous contents
        }
        cl::Event copied;
        cc_.queue().enqueueCopyBuffer(source, shared_->clBuffer(), 0, std::size_t(slot.offset),
                                      bytes, nullptr, &copied);
        if (sync_) sync_->afterCl(index);
        slot.first = copied;
        slot.done = copied;
    }

    void prepareForDraw(Slot& slot) override {
        if (sync_) sync_->beforeGl(int(&slot - slots_));
    }

    void enqueueWaitForDrawing(Slot& slot) override {
        if (sync_) sync_->beforeCl(int(&slot - slots_));
    }

  private:
    std::unique_ptr<ExternalBuffer> shared_;
    std::unique_ptr<ExternalSync> sync_;  // null: finish-based, syncWhy_ says why
    std::string syncWhy_;
};

}  // namespace

std::unique_ptr<BufferBridge> makeExternalMemoryBridge(ComputeContext& cc, std::size_t capacity,
                                                       const InteropCaps& caps) {
    return std::make_unique<ExternalMemoryBridge>(cc, capacity, caps);
}

}  // namespace clviz
