#pragma once
// GPU-side ordering of GL's and CL's work on Vulkan memory both import (external_memory.hpp):
// exported binary semaphores, imported by GL (GL_EXT_semaphore_fd) and CL
// (cl_khr_external_semaphore_opaque_fd), used as SemaphoreSchedule says. Unlike CL events and GL
// fences waited on the CPU, a semaphore wait also tells GL that the memory changed (the buffer is
// in the wait's barrier list), and neither side's CPU thread blocks.
//
// Release order: the CL and GL semaphore objects, then the Vulkan semaphores. The owner drains
// both APIs first (no signal or wait may still be pending on the GPU).
#include <glad/gl.h>

#include <memory>
#include <string>
#include <vector>

#include "compute/core/cl.hpp"
#include "compute/interop/interop_path.hpp"
#include "compute/interop/semaphore_schedule.hpp"

namespace clviz {

class ComputeContext;
class VulkanExporter;
class ExportedSemaphore;

// Empty when exported semaphores can order GL and CL here, else the one-line reason (for the
// description of the finish-based fallback). GL context current.
std::string externalSyncProblem(const InteropCaps& caps, const VulkanExporter& exporter);

class ExternalSync {
  public:
    // Two semaphores per slot, each imported into GL and CL. `buffer` is the GL buffer whose
    // memory the slots share (named in every GL wait and signal). Throws clviz::Error with the
    // reason when an export or import is refused; nothing is left behind then.
    ExternalSync(ComputeContext& cc, VulkanExporter& exporter, int slots, GLuint buffer);
    ~ExternalSync();
    ExternalSync(const ExternalSync&) = delete;
    ExternalSync& operator=(const ExternalSync&) = delete;

    void beforeCl(int slot) { run(schedule_.beforeCl(slot)); }
    void afterCl(int slot) { run(schedule_.afterCl(slot)); }
    void beforeGl(int slot) { run(schedule_.beforeGl(slot)); }

  private:
    struct Semaphore;
    void run(const std::vector<SyncStep>& steps);
    Semaphore& semaphore(int slot, bool toCl);

    ComputeContext& cc_;
    GLuint buffer_;
    SemaphoreSchedule schedule_;
    std::vector<std::unique_ptr<Semaphore>> semaphores_;  // per slot: gl->cl, cl->gl
    struct ClEntryPoints;
    std::unique_ptr<ClEntryPoints> cl_;
};

}  // namespace clviz
