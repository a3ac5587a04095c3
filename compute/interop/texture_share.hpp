#pragma once
// An RGBA8 OpenGL texture that OpenCL results reach by the interop path the N-body buffers use
// (interop_path.hpp): with cl_khr_gl_sharing the texture is wrapped with clCreateFromGLTexture and
// filled on the device between acquire and release. With external memory (no CL image from
// Vulkan memory: its tiling is opaque to CL) a Vulkan buffer imported by both CL and GL is the
// staging area: CL copies the pixels into it on the device, GL copies it into the texture on the
// device (glTexSubImage2D from a pixel-unpack buffer); no byte crosses the host. Otherwise CL's
// pixels are mapped on the host and uploaded with glTexSubImage2D. If the chosen path cannot be
// set up or fails while running, the texture falls back to host copy and fallbackReason() says
// why.
//
// Pixels everywhere are tightly packed RGBA8 rows, top row first (as stb_image loads them); GL
// texture row 0 is that top row and the image view flips it onto the screen.
//
// The texture may be larger than the picture it holds (its capacity): a result whose size changes
// every frame (an expanding rotation that spins) reuses one allocation and fills its top-left
// width() x height() texels.
#include <glad/gl.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "compute/core/cl.hpp"
#include "compute/interop/interop_path.hpp"

namespace clviz {

class ComputeContext;
class ExternalBuffer;
class ExternalSync;
class VulkanExporter;

// Where a transfer's time went. Device time comes from CL profiling events; host time is the CPU
// wall time of the GL calls (glTexSubImage2D, or the glFinish that hands the texture to CL).
struct TextureTransferTiming {
    double deviceMs = 0;
    double hostMs = 0;
    std::size_t bytes = 0;
};

class SharedTexture {
  public:
    // Creates a width x height RGBA8 texture (GL context current) and, when `choice` says
    // gl-sharing, the CL image that aliases it. Throws clviz::Error when the size is zero or above
    // GL_MAX_TEXTURE_SIZE, or GL cannot allocate it.
    SharedTexture(ComputeContext& cc, const InteropChoice& choice, int width, int height);
    // Same with room for later resize() calls up to capacityWidth x capacityHeight (clamped to
    // GL_MAX_TEXTURE_SIZE, never below width x height).
    SharedTexture(ComputeContext& cc, const InteropChoice& choice, int width, int height,
                  int capacityWidth, int capacityHeight);
    ~SharedTexture();
    SharedTexture(const SharedTexture&) = delete;
    SharedTexture& operator=(const SharedTexture&) = delete;

    GLuint texture() const { return texture_; }
    int width() const { return width_; }  // the picture it holds
    int height() const { return height_; }
    int capacityWidth() const { return capacityWidth_; }  // the GL texture's size
    int capacityHeight() const { return capacityHeight_; }
    std::size_t bytes() const { return std::size_t(width_) * std::size_t(height_) * 4; }
    InteropPath path() const { return path_; }
    // Empty unless gl-sharing or external memory was chosen and then abandoned; one line on why.
    const std::string& fallbackReason() const { return fallbackReason_; }
    // External memory only: how GL and CL take turns on the staging memory ("exported semaphores
    // on the GPU", or the CPU fallback and why); empty on the other paths.
    std::string syncDescription() const;

    // Changes the picture size. Reallocates (contents lost; the CL alias recreated) only when it
    // does not fit the capacity, which then grows with headroom. Returns whether it reallocated.
    // Throws like the constructor.
    bool resize(int width, int height);

    // Copies `pixels` (bytes() of RGBA8 in a CL buffer) into the texture, after `waitFor`.
    // On return the texture holds the pixels for any later GL command.
    TextureTransferTiming copyFrom(const cl::Buffer& pixels,
                                   const std::vector<cl::Event>& waitFor = {});

    // Copies the texture into `pixels` (a CL buffer of at least bytes()): how CL reads a
    // texture that GL owns (the loaded source image). Returns after the copy has finished.
    TextureTransferTiming copyTo(const cl::Buffer& pixels);

    // Host pixels (bytes() of RGBA8) straight into the texture.
    void upload(const std::uint8_t* rgba);

    // The picture's texels through glGetTexImage (width() x height(), tightly packed): for tests.
    std::vector<std::uint8_t> readBack() const;

    // Gives up gl-sharing or external memory for host copy (a failure); `why` is kept.
    void useHostCopy(const std::string& why);

  private:
    void checkSize(int width, int height) const;
    void allocate(int capacityWidth, int capacityHeight);
    void readTexels(std::uint8_t* out) const;
    void release();
    enum class Transfer { BufferToTexture, TextureToBuffer };
    // gl-sharing: acquire the texture's CL image, copy one way, release; returns after release.
    TextureTransferTiming copyShared(const cl::Buffer& pixels,
                                     const std::vector<cl::Event>& waitFor, Transfer direction);
    TextureTransferTiming copyFromHost(const cl::Buffer& pixels,
                                       const std::vector<cl::Event>& waitFor);
    TextureTransferTiming copyToHost(const cl::Buffer& pixels);
    // external memory: device copies through the staging buffer both APIs see.
    TextureTransferTiming copyFromExternal(const cl::Buffer& pixels,
                                           const std::vector<cl::Event>& waitFor);
    TextureTransferTiming copyToExternal(const cl::Buffer& pixels);
    void startSemaphores(VulkanExporter& exporter);
    void stopSemaphores();
    // Device time of the last copy into the staging memory, which semaphores let run unwaited.
    double previousCopyMilliseconds();

    ComputeContext& cc_;
    GLuint texture_ = 0;
    int width_ = 0;
    int height_ = 0;
    int capacityWidth_ = 0;
    int capacityHeight_ = 0;
    InteropPath wanted_ = InteropPath::HostCopy;  // the chosen path, until abandoned
    InteropPath path_ = InteropPath::HostCopy;
    bool glEvent_ = false;  // cl_khr_gl_event: acquire/release synchronize with GL implicitly
    std::string fallbackReason_;
    cl::ImageGL shared_;                       // valid on the gl-sharing path only
    std::unique_ptr<ExternalBuffer> staging_;  // external-memory path only: capacity texels
    std::unique_ptr<ExternalSync> sync_;       // external memory with exported semaphores
    std::string syncWhy_;                      // why not, when sync_ is null
    cl::Event pendingCopy_;                    // the last copy into staging_, not waited for
};

// Largest texture GL accepts (GL_MAX_TEXTURE_SIZE); needs a current context.
int maxGlTextureSize();

}  // namespace clviz
