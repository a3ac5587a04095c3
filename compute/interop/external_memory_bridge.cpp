// external-memory interop: one Vulkan allocation with three slots, imported into GL as one buffer
// and into CL as one buffer. Each frame is one device-side clEnqueueCopyBuffer from the
// simulation's buffer into a slot; GL draws the slot straight from the same device memory.
//
// Synchronisation is finish-based (no exported semaphores yet): CL->GL, view() waits on the
// copy's CL event before GL draws the slot (the device has then finished writing it); GL->CL, the
// slot's GL fence is waited on the CPU before CL overwrites it. With three slots and one frame of
// latency both waits are normally already satisfied, so neither stalls the pipeline.
#include "common/error.hpp"
#include "compute/core/compute_context.hpp"
#include "compute/interop/bridge_paths.hpp"
#include "compute/interop/external_memory.hpp"

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
        shared_ = std::make_unique<ExternalBuffer>(cc, exporterFor(cc), stride * kSlots);
        for (int i = 0; i < kSlots; ++i) {
            slots_[i].buffer = shared_->glBuffer();
            slots_[i].offset = GLintptr(stride * std::size_t(i));
        }
    }

    ~ExternalMemoryBridge() override {
        drain();          // no copy in flight, GL done reading
        shared_.reset();  // CL, then GL, then the Vulkan memory (ExternalBuffer's order)
    }

    InteropPath path() const override { return InteropPath::ExternalMemory; }
    std::string description() const override {
        return "external-memory: Vulkan memory on " + shared_->deviceName() +
               " imported by GL and CL, device copy into 3 slots; sync by CL event and GL fence "
               "on the CPU (no exported semaphores)";
    }

  protected:
    void enqueueCopy(Slot& slot, const cl::Buffer& source, std::size_t bytes) override {
        waitReadFence(slot);  // GL has finished drawing this slot's previous contents
        cl::Event copied;
        cc_.queue().enqueueCopyBuffer(source, shared_->clBuffer(), 0, std::size_t(slot.offset),
                                      bytes, nullptr, &copied);
        slot.first = copied;
        slot.done = copied;
    }

  private:
    std::unique_ptr<ExternalBuffer> shared_;
};

}  // namespace

std::unique_ptr<BufferBridge> makeExternalMemoryBridge(ComputeContext& cc, std::size_t capacity,
                                                       const InteropCaps& caps) {
    return std::make_unique<ExternalMemoryBridge>(cc, capacity, caps);
}

}  // namespace clviz
