#pragma once
// The concrete bridges behind createBufferBridge(); internal to compute/interop.
#include <memory>

#include "compute/interop/buffer_bridge.hpp"

namespace clviz {

// Persistently mapped when `persistent` (needs glBufferStorage), else glBufferSubData; the read
// goes through pinned staging memory when `pinned` (see host_copy_bridge.cpp).
std::unique_ptr<BufferBridge> makeHostCopyBridge(ComputeContext& cc, std::size_t capacity,
                                                 bool persistent, bool pinned);
std::unique_ptr<BufferBridge> makeGlSharingBridge(ComputeContext& cc, std::size_t capacity,
                                                  const InteropCaps& caps);
std::unique_ptr<BufferBridge> makeExternalMemoryBridge(ComputeContext& cc, std::size_t capacity,
                                                       const InteropCaps& caps);

// Rounds up to 256 bytes so every slot starts aligned for any vertex format and the mapping.
inline std::size_t slotStride(std::size_t bytes) {
    return (bytes + 255) / 256 * 256;
}

}  // namespace clviz
