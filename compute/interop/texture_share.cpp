#include "compute/interop/texture_share.hpp"

#include <algorithm>
#include <array>
#include <chrono>
#include <cstring>

#include "common/elapsed.hpp"
#include "common/error.hpp"
#include "compute/core/cl_boundary.hpp"
#include "compute/core/compute_context.hpp"
#include "compute/core/profiling.hpp"
#include "compute/interop/external_memory.hpp"
#include "compute/interop/external_sync.hpp"
#include "compute/interop/gl_sharing_driver.hpp"

namespace clviz {

namespace {

using Clock = std::chrono::steady_clock;

void drainGlErrors() {
    for (int guard = 0; guard < 32 && glGetError() != GL_NO_ERROR; ++guard) {
    }
}

std::string sizeText(int w, int h) {
    return std::to_string(w) + "x" + std::to_string(h);
}

// Texel rows are 4-byte RGBA8, so the default alignment of 4 always fits; the row length and skips
// may have been changed by someone else (ImGui, the screenshot code).
void setTightPixelStore() {
    glBindBuffer(GL_PIXEL_UNPACK_BUFFER, 0);
    glBindBuffer(GL_PIXEL_PACK_BUFFER, 0);
    glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
    glPixelStorei(GL_UNPACK_ROW_LENGTH, 0);
    glPixelStorei(GL_UNPACK_SKIP_ROWS, 0);
    glPixelStorei(GL_UNPACK_SKIP_PIXELS, 0);
    glPixelStorei(GL_PACK_ALIGNMENT, 4);
    glPixelStorei(GL_PACK_ROW_LENGTH, 0);
    glPixelStorei(GL_PACK_SKIP_ROWS, 0);
    glPixelStorei(GL_PACK_SKIP_PIXELS, 0);
}

}  // namespace

int maxGlTextureSize() {
    GLint size = 0;
    glGetIntegerv(GL_MAX_TEXTURE_SIZE, &size);
    return size;
}

SharedTexture::SharedTexture(ComputeContext& cc, const InteropChoice& choice, int width, int height)
    : SharedTexture(cc, choice, width, height, width, height) {}

SharedTexture::SharedTexture(ComputeContext& cc, const InteropChoice& choice, int width, int height,
                             int capacityWidth, int capacityHeight)
    : cc_(cc) {
    glEvent_ = cc.info().hasExtension("cl_khr_gl_event");
    wanted_ = choice.path;
    checkSize(width, height);
    const int maxSize = maxGlTextureSize();
    allocate(std::clamp(capacityWidth, width, maxSize),
             std::clamp(capacityHeight, height, maxSize));
    width_ = width;
    height_ = height;
}

void SharedTexture::checkSize(int width, int height) const {
    if (width <= 0 || height <= 0)
        throw Error("cannot create a texture for an empty image (" + sizeText(width, height) + ")");
    const int maxSize = maxGlTextureSize();
    if (width > maxSize || height > maxSize)
        throw Error("image " + sizeText(width, height) +
                    " is larger than this OpenGL's GL_MAX_TEXTURE_SIZE (" +
                    std::to_string(maxSize) + ")");
}

void SharedTexture::allocate(int capacityWidth, int capacityHeight) {
    release();
    drainGlErrors();
    glGenTextures(1, &texture_);
    if (texture_ == 0) throw Error("glGenTextures failed");
    glBindTexture(GL_TEXTURE_2D, texture_);
    // One level and non-mipmap filters: the texture must be complete for clCreateFromGLTexture.
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_BASE_LEVEL, 0);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAX_LEVEL, 0);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
    setTightPixelStore();
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, capacityWidth, capacityHeight, 0, GL_RGBA,
                 GL_UNSIGNED_BYTE, nullptr);
    const GLenum err = glGetError();
    glBindTexture(GL_TEXTURE_2D, 0);
    if (err != GL_NO_ERROR) {
        release();
        throw Error("OpenGL cannot allocate a " + sizeText(capacityWidth, capacityHeight) +
                    " RGBA8 texture (" +
                    (err == GL_OUT_OF_MEMORY ? std::string("out of memory")
                                             : "GL error " + std::to_string(err)) +
                    ")");
    }
    capacityWidth_ = capacityWidth;
    capacityHeight_ = capacityHeight;

    path_ = InteropPath::HostCopy;
    if (wanted_ == InteropPath::ExternalMemory &&
        !cc_.info().hasExtension("cl_khr_external_memory_opaque_fd")) {
        useHostCopy("the OpenCL device has no cl_khr_external_memory_opaque_fd");
    } else if (wanted_ == InteropPath::ExternalMemory) {
        try {
            auto exporter = exporterFor(cc_);
            staging_ = std::make_unique<ExternalBuffer>(
                cc_, exporter, std::size_t(capacityWidth) * std::size_t(capacityHeight) * 4);
            path_ = InteropPath::ExternalMemory;
            startSemaphores(*exporter);
        } catch (const Error& e) {
            useHostCopy(e.what());
        }
    } else if (wanted_ == InteropPath::GlSharing &&
               !glSharingDriver().supports(cc_.platform(), cc_.device())) {
        // Never call clCreateFromGLTexture where the ICD may have no entry for it.
        useHostCopy("the OpenCL device has no cl_khr_gl_sharing");
    } else if (wanted_ == InteropPath::GlSharing) {
        glFinish();  // GL is done with the new texture before CL first acquires it
        try {
            cl_int err = CL_SUCCESS;
            cl_mem image = glSharingDriver().createFromGlTexture(cc_.context()(), CL_MEM_READ_WRITE,
                                                                 GL_TEXTURE_2D, 0, texture_, &err);
            checkGlSharingCall(err, "clCreateFromGLTexture");
            shared_ = cl::ImageGL(image);  // takes ownership
            path_ = InteropPath::GlSharing;
        } catch (const cl::Error& e) {
            useHostCopy(ClError::describe("clCreateFromGLTexture", e.what(), e.err()));
        }
    }
}

void SharedTexture::startSemaphores(VulkanExporter& exporter) {
    InteropCaps caps;
    caps.clExternalSemaphoreFd = cc_.info().hasExtension("cl_khr_external_semaphore_opaque_fd");
    detectGlInteropCaps(caps);
    syncWhy_ = externalSyncProblem(caps, exporter);
    if (!syncWhy_.empty()) return;
    try {
        sync_ = std::make_unique<ExternalSync>(cc_, exporter, 1, staging_->glBuffer());
    } catch (const std::exception& e) {
        syncWhy_ = e.what();  // still zero-copy, synchronised on the CPU
    }
}

std::string SharedTexture::syncDescription() const {
    if (path_ != InteropPath::ExternalMemory) return {};
    if (sync_) return "exported semaphores on the GPU";
    return "CL event and glFinish on the CPU (" + syncWhy_ + ")";
}

void SharedTexture::stopSemaphores() {
    if (!sync_) return;
    cc_.finishQuietly();  // no semaphore operation may be pending on either side
    glFinish();
    sync_.reset();
    pendingCopy_ = cl::Event();
}

void SharedTexture::release() {
    if (staging_) cc_.finishQuietly();  // no CL copy may still use the staging memory
    stopSemaphores();
    staging_.reset();
    shared_ = cl::ImageGL();  // the CL alias goes before the GL texture
    if (texture_ != 0) glDeleteTextures(1, &texture_);
    texture_ = 0;
    capacityWidth_ = capacityHeight_ = 0;
}

SharedTexture::~SharedTexture() {
    release();
}

bool SharedTexture::resize(int width, int height) {
    checkSize(width, height);
    if (width <= capacityWidth_ && height <= capacityHeight_) {
        width_ = width;
        height_ = height;
        return false;
    }
    // Grow with a quarter of headroom in 64-texel steps, so a spinning expanded rotation settles
    // after a reallocation or two.
    const int maxSize = maxGlTextureSize();
    auto grow = [&](int need, int have) {
        if (need <= have) return have;
        const int wanted = (need + need / 4 + 63) / 64 * 64;
        return std::clamp(wanted, need, maxSize);
    };
    allocate(grow(width, capacityWidth_), grow(height, capacityHeight_));
    width_ = width;
    height_ = height;
    return true;
}

void SharedTexture::useHostCopy(const std::string& why) {
    if (path_ != InteropPath::HostCopy)
        cc_.finishQuietly();  // nothing of ours may still hold the shared image or staging
    shared_ = cl::ImageGL();
    stopSemaphores();
    staging_.reset();
    const InteropPath failed = wanted_;
    path_ = wanted_ = InteropPath::HostCopy;
    fallbackReason_ =
        std::string(interopPathName(failed)) + " failed (" + why + "); using host copy";
}

TextureTransferTiming SharedTexture::copyFrom(const cl::Buffer& pixels,
                                              const std::vector<cl::Event>& waitFor) {
    if (path_ == InteropPath::ExternalMemory) {
        try {
            return copyFromExternal(pixels, waitFor);
        } catch (const cl::Error& e) {
            useHostCopy(
                ClError::describe("copying through the external memory", e.what(), e.err()));
        }
    }
    if (path_ == InteropPath::GlSharing) {
        try {
            return copyShared(pixels, waitFor, Transfer::BufferToTexture);
        } catch (const cl::Error& e) {
            useHostCopy(ClError::describe("sharing the texture with OpenCL", e.what(), e.err()));
        }
    }
    return clBoundary("copying the result to the texture",
                      [&] { return copyFromHost(pixels, waitFor); });
}

TextureTransferTiming SharedTexture::copyTo(const cl::Buffer& pixels) {
    if (path_ == InteropPath::ExternalMemory) {
        try {
            return copyToExternal(pixels);
        } catch (const cl::Error& e) {
            useHostCopy(
                ClError::describe("copying through the external memory", e.what(), e.err()));
        }
    }
    if (path_ == InteropPath::GlSharing) {
        try {
            return copyShared(pixels, {}, Transfer::TextureToBuffer);
        } catch (const cl::Error& e) {
            useHostCopy(ClError::describe("sharing the texture with OpenCL", e.what(), e.err()));
        }
    }
    return clBoundary("copying the texture to OpenCL", [&] { return copyToHost(pixels); });
}

TextureTransferTiming SharedTexture::copyShared(const cl::Buffer& pixels,
                                                const std::vector<cl::Event>& waitFor,
                                                Transfer direction) {
    TextureTransferTiming t;
    t.bytes = bytes();
    const auto t0 = Clock::now();
    // GL must be done with the texture before CL touches it. cl_khr_gl_event makes the acquire
    // wait for GL commands already flushed from this thread; without it only glFinish is safe.
    if (glEvent_)
        glFlush();
    else
        glFinish();
    t.hostMs = msSince(t0);
    auto& q = cc_.queue();
    const std::array<std::size_t, 3> origin{0, 0, 0};
    const std::array<std::size_t, 3> region{std::size_t(width_), std::size_t(height_), 1};
    const cl::Event acquire = acquireGlObject(glSharingDriver(), q, shared_, waitFor);
    if (direction == Transfer::BufferToTexture)
        q.enqueueCopyBufferToImage(pixels, shared_, 0, origin, region);
    else
        q.enqueueCopyImageToBuffer(shared_, pixels, origin, region, 0);
    const cl::Event release = releaseGlObject(glSharingDriver(), q, shared_);
    // GL uses the texture next (or the caller the buffer); waiting for the release is what makes
    // that safe on every driver.
    release.wait();
    t.deviceMs = spanMilliseconds(acquire, release);
    return t;
}

TextureTransferTiming SharedTexture::copyFromHost(const cl::Buffer& pixels,
                                                  const std::vector<cl::Event>& waitFor) {
    TextureTransferTiming t;
    t.bytes = bytes();
    auto& q = cc_.queue();
    // Mapping is free on CPU devices (PoCL shares host memory) and one DMA on GPUs; GL then copies
    // straight from the mapped pointer, so there is a single host copy either way.
    cl::Event map;
    void* p = q.enqueueMapBuffer(pixels, CL_TRUE, CL_MAP_READ, 0, bytes(),
                                 waitFor.empty() ? nullptr : &waitFor, &map);
    t.deviceMs = eventMilliseconds(map);
    const auto t0 = Clock::now();
    glBindTexture(GL_TEXTURE_2D, texture_);
    setTightPixelStore();
    glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, width_, height_, GL_RGBA, GL_UNSIGNED_BYTE, p);
    glBindTexture(GL_TEXTURE_2D, 0);
    t.hostMs = msSince(t0);
    // glTexSubImage2D has copied client memory when it returns, so unmapping now is safe.
    q.enqueueUnmapMemObject(pixels, p);
    return t;
}

TextureTransferTiming SharedTexture::copyToHost(const cl::Buffer& pixels) {
    TextureTransferTiming t;
    t.bytes = bytes();
    auto& q = cc_.queue();
    cl::Event map;
    void* p = q.enqueueMapBuffer(pixels, CL_TRUE, CL_MAP_WRITE_INVALIDATE_REGION, 0, bytes(),
                                 nullptr, &map);
    const auto t0 = Clock::now();
    readTexels(static_cast<std::uint8_t*>(p));
    t.hostMs = msSince(t0);
    cl::Event unmap;
    q.enqueueUnmapMemObject(pixels, p, nullptr, &unmap);
    unmap.wait();
    t.deviceMs = eventMilliseconds(map) + eventMilliseconds(unmap);
    return t;
}

TextureTransferTiming SharedTexture::copyFromExternal(const cl::Buffer& pixels,
                                                      const std::vector<cl::Event>& waitFor) {
    TextureTransferTiming t;
    t.bytes = bytes();
    // The previous frame's glTexSubImage2D read the staging memory: GL must be done with it
    // before CL overwrites it; on the GPU with semaphores, else with glFinish.
    auto t0 = Clock::now();
    if (sync_) {
        t.deviceMs = previousCopyMilliseconds();
        sync_->beforeCl(0);
    } else {
        glFinish();
    }
    t.hostMs = msSince(t0);
    cl::Event copy;
    cc_.queue().enqueueCopyBuffer(pixels, staging_->clBuffer(), 0, 0, bytes(),
                                  waitFor.empty() ? nullptr : &waitFor, &copy);
    t0 = Clock::now();
    if (sync_) {
        sync_->afterCl(0);
        sync_->beforeGl(0);  // GL's upload below waits on the GPU for the copy
        pendingCopy_ = copy;
    } else {
        copy.wait();  // CL has written the memory GL reads next
        t.deviceMs = eventMilliseconds(copy);
    }
    glBindTexture(GL_TEXTURE_2D, texture_);
    setTightPixelStore();
    glBindBuffer(GL_PIXEL_UNPACK_BUFFER, staging_->glBuffer());
    glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, width_, height_, GL_RGBA, GL_UNSIGNED_BYTE, nullptr);
    glBindBuffer(GL_PIXEL_UNPACK_BUFFER, 0);
    glBindTexture(GL_TEXTURE_2D, 0);
    t.hostMs += msSince(t0);
    return t;
}

double SharedTexture::previousCopyMilliseconds() {
    if (pendingCopy_() == nullptr) return 0;
    pendingCopy_.wait();  // a frame old: long done
    double ms = 0;
    try {
        ms = eventMilliseconds(pendingCopy_);
    } catch (const cl::Error&) {
        // a queue without profiling: no device time to show
    }
    pendingCopy_ = cl::Event();
    return ms;
}

TextureTransferTiming SharedTexture::copyToExternal(const cl::Buffer& pixels) {
    TextureTransferTiming t;
    t.bytes = bytes();
    // The whole level lands in the staging buffer (it holds capacity texels), then CL crops it.
    auto t0 = Clock::now();
    if (sync_) sync_->beforeGl(0);  // CL's last copy through the staging memory is done
    glBindTexture(GL_TEXTURE_2D, texture_);
    setTightPixelStore();
    glBindBuffer(GL_PIXEL_PACK_BUFFER, staging_->glBuffer());
    glGetTexImage(GL_TEXTURE_2D, 0, GL_RGBA, GL_UNSIGNED_BYTE, nullptr);
    glBindBuffer(GL_PIXEL_PACK_BUFFER, 0);
    glBindTexture(GL_TEXTURE_2D, 0);
    if (sync_)
        sync_->beforeCl(0);  // CL's copy waits on the GPU for GL's write
    else
        glFinish();  // GL has written the staging memory before CL reads it
    t.hostMs = msSince(t0);
    const std::array<std::size_t, 3> origin{0, 0, 0};
    const std::array<std::size_t, 3> region{std::size_t(width_) * 4, std::size_t(height_), 1};
    cl::Event copy;
    cc_.queue().enqueueCopyBufferRect(staging_->clBuffer(), pixels, origin, origin, region,
                                      std::size_t(capacityWidth_) * 4, 0, std::size_t(width_) * 4,
                                      0, nullptr, &copy);
    if (sync_) sync_->afterCl(0);
    copy.wait();
    t.deviceMs = eventMilliseconds(copy);
    return t;
}

void SharedTexture::readTexels(std::uint8_t* out) const {
    glBindTexture(GL_TEXTURE_2D, texture_);
    setTightPixelStore();
    if (width_ == capacityWidth_ && height_ == capacityHeight_) {
        glGetTexImage(GL_TEXTURE_2D, 0, GL_RGBA, GL_UNSIGNED_BYTE, out);
    } else {
        // glGetTextureSubImage needs GL 4.5; the whole level and a crop work everywhere.
        std::vector<std::uint8_t> all(std::size_t(capacityWidth_) * capacityHeight_ * 4);
        glGetTexImage(GL_TEXTURE_2D, 0, GL_RGBA, GL_UNSIGNED_BYTE, all.data());
        const std::size_t row = std::size_t(width_) * 4;
        for (int y = 0; y < height_; ++y)
            std::memcpy(out + y * row, all.data() + std::size_t(y) * capacityWidth_ * 4, row);
    }
    glBindTexture(GL_TEXTURE_2D, 0);
}

void SharedTexture::upload(const std::uint8_t* rgba) {
    glBindTexture(GL_TEXTURE_2D, texture_);
    setTightPixelStore();
    glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, width_, height_, GL_RGBA, GL_UNSIGNED_BYTE, rgba);
    glBindTexture(GL_TEXTURE_2D, 0);
}

std::vector<std::uint8_t> SharedTexture::readBack() const {
    std::vector<std::uint8_t> out(bytes());
    readTexels(out.data());
    return out;
}

}  // namespace clviz
