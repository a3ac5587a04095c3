// The GL half of interop capability detection: glad's flags, read once a context is current.
#include <glad/gl.h>

#include "compute/interop/interop_path.hpp"

namespace clviz {

void detectGlInteropCaps(InteropCaps& caps) {
    // glBufferStorage is core since 4.4; glad loads it under either name.
    caps.glBufferStorage =
        (GLAD_GL_VERSION_4_4 || GLAD_GL_ARB_buffer_storage) && glad_glBufferStorage != nullptr;
    caps.glMemoryObjectFd = GLAD_GL_EXT_memory_object && GLAD_GL_EXT_memory_object_fd;
    caps.glSemaphoreFd = GLAD_GL_EXT_semaphore && GLAD_GL_EXT_semaphore_fd;
    caps.glSync = GLAD_GL_VERSION_3_2 != 0;
}

}  // namespace clviz
