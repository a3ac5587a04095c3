// The external-memory path on the CI box. The Vulkan <-> GL half: lavapipe allocates and exports,
// llvmpipe's GL_EXT_memory_object_fd is asked to import; where the drivers' UUIDs match the bytes
// must be exact both ways, where they differ (Debian 12's Mesa 22.3: lavapipe and llvmpipe are
// separate binaries) the mismatch must be detected up front and the import refused with a
// reason, never a crash. Debian 12's Mesa 22.3 advertises GL_EXT_memory_object_fd and its UUIDs
// match lavapipe's, yet llvmpipe refuses lavapipe's memory (its fd header names another build):
// there the byte-exact part is skipped with that reason, and runs on the H200. PoCL has no
// cl_khr_external_memory_opaque_fd, so every CL-side entry falls back with a one-line reason
// instead of crashing. The full CL <-> GL path runs on the H200 (bench/device/).
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <utility>
#include <vector>

#include "common/error.hpp"
#include "compute/core/compute_context.hpp"
#include "compute/interop/buffer_bridge.hpp"
#include "compute/interop/external_memory.hpp"
#include "compute/interop/texture_share.hpp"
#include "tests/compute/interop/gl_context.hpp"

namespace clviz {
namespace {

class ExternalMemoryTest : public test::GlComputeTest {};

using test::randomBytes;

// Vulkan on the GL context's device when one matches its UUID, else any device that exports.
std::shared_ptr<VulkanExporter> openExporter() {
    for (const DeviceUuid& u : glDeviceUuids()) {
        try {
            return VulkanExporter::open(u);
        } catch (const Error&) {
        }
    }
    return VulkanExporter::open(std::nullopt);
}

TEST_F(ExternalMemoryTest, GlHasTheImportExtensions) {
    InteropCaps caps;
    detectGlInteropCaps(caps);
    if (!caps.glMemoryObjectFd) GTEST_SKIP() << "this GL has no GL_EXT_memory_object_fd";
    EXPECT_FALSE(glDeviceUuids().empty()) << "GL_EXT_memory_object without a device UUID";
}

// Vulkan memory written through its mapping reads back exactly through the GL buffer that
// imports it, and GL's writes read back exactly through the mapping, for awkward sizes.
TEST_F(ExternalMemoryTest, VulkanMemoryImportedIntoGlIsByteExactBothWays) {
    if (!GLAD_GL_EXT_memory_object_fd) GTEST_SKIP() << "this GL has no GL_EXT_memory_object_fd";
    std::shared_ptr<VulkanExporter> vk;
    ASSERT_NO_THROW(vk = openExporter()) << "install mesa-vulkan-drivers (lavapipe)";
    try {
        checkGlCanImport(*vk);
    } catch (const Error& e) {
        // Mesa checks the same UUIDs: the import must then fail cleanly too.
        auto memory = vk->allocate(4096, true);
        EXPECT_THROW(GlMemoryBuffer(*memory, 4096), Error);
        GTEST_SKIP() << "GL cannot import this Vulkan driver's memory: " << e.what();
    }
    try {
        auto probe = vk->allocate(4096, true);
        GlMemoryBuffer(*probe, 4096);
    } catch (const Error& e) {
        GTEST_SKIP() << "GL refuses " << vk->deviceName() << "'s memory: " << e.what();
    }
    unsigned seed = 7;
    for (std::size_t bytes :
         {std::size_t(4099 * 16), std::size_t(1), std::size_t(16), std::size_t(3 * 1000003)}) {
        SCOPED_TRACE(bytes);
        auto memory = vk->allocate(bytes, true);
        ASSERT_GE(memory->allocationSize(), bytes);
        auto* mapped = static_cast<std::uint8_t*>(memory->map());
        const auto written = randomBytes(bytes, seed++);
        std::memcpy(mapped, written.data(), bytes);

        GlMemoryBuffer gl(*memory, bytes);
        std::vector<std::uint8_t> got(bytes);
        glBindBuffer(GL_COPY_READ_BUFFER, gl.buffer());
        glGetBufferSubData(GL_COPY_READ_BUFFER, 0, GLsizeiptr(bytes), got.data());
        ASSERT_EQ(glGetError(), GLenum(GL_NO_ERROR));
        ASSERT_EQ(got, written);

        // GL writes (on the GL side, as a draw's transform feedback would), Vulkan's view sees it.
        const auto back = randomBytes(bytes, seed++);
        glBufferSubData(GL_COPY_READ_BUFFER, 0, GLsizeiptr(bytes), back.data());
        glBindBuffer(GL_COPY_READ_BUFFER, 0);
        glFinish();
        ASSERT_EQ(0, std::memcmp(mapped, back.data(), bytes));
    }
}

TEST_F(ExternalMemoryTest, GlRefusesAnImportLargerThanTheAllocation) {
    if (!GLAD_GL_EXT_memory_object_fd) GTEST_SKIP() << "this GL has no GL_EXT_memory_object_fd";
    auto vk = openExporter();
    auto memory = vk->allocate(4096, true);
    EXPECT_THROW(GlMemoryBuffer(*memory, memory->allocationSize() + 1), Error);
    EXPECT_THROW(GlMemoryBuffer(*memory, 0), Error);
    EXPECT_THROW(vk->allocate(0), Error);
}

TEST_F(ExternalMemoryTest, NoVulkanDeviceWithTheUuidSaysWhatItFound) {
    DeviceUuid bogus;
    bogus.fill(0xab);
    try {
        VulkanExporter::open(bogus);
        FAIL() << "a made-up UUID matched";
    } catch (const Error& e) {
        const std::string m = e.what();
        // No loader, no device, or no match: each is one line naming the cause.
        EXPECT_TRUE(m.find("abababab-abab") != std::string::npos ||
                    m.find("Vulkan") != std::string::npos)
            << m;
        EXPECT_EQ(m.find('\n'), std::string::npos) << m;
    }
}

TEST_F(ExternalMemoryTest, MissingVulkanLoaderIsAReasonNotACrash) {
    setenv("CLVIZ_VULKAN_LIBRARY", "libclviz-no-such-vulkan.so.1", 1);
    try {
        VulkanExporter::open(std::nullopt);
        ADD_FAILURE() << "opened a loader that does not exist";
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find("no Vulkan loader"), std::string::npos) << e.what();
        EXPECT_NE(std::string(e.what()).find("libvulkan1"), std::string::npos) << e.what();
    }
    // The chooser, given caps that claim everything on the CL/GL side, shows that reason.
    InteropCaps caps = detectClInteropCaps({"cl_khr_external_memory_opaque_fd"});
    caps.glMemoryObjectFd = true;
    try {
        VulkanExporter::open(std::nullopt);
    } catch (const Error& e) {
        caps.externalMemoryProbe = e.what();
    }
    unsetenv("CLVIZ_VULKAN_LIBRARY");
    const InteropChoice c = chooseInteropPath(InteropRequest::Auto, caps);
    EXPECT_EQ(c.path, InteropPath::HostCopy);
    EXPECT_NE(c.reason.find("no Vulkan loader"), std::string::npos) << c.reason;
}

// PoCL: the probe stops at the missing CL extension and never opens Vulkan.
TEST_F(ExternalMemoryTest, ProbeOnPoclNamesTheMissingClExtension) {
    if (cc_->info().hasExtension("cl_khr_external_memory_opaque_fd"))
        GTEST_SKIP() << "this device has external memory";
    InteropCaps caps = detectClInteropCaps(cc_->info().extensions);
    detectGlInteropCaps(caps);
    probeExternalMemory(*cc_, caps);
    EXPECT_FALSE(caps.externalMemoryDevice);
    EXPECT_NE(caps.externalMemoryProbe.find("cl_khr_external_memory_opaque_fd"), std::string::npos)
        << caps.externalMemoryProbe;
    const InteropChoice c = chooseInteropPath(InteropRequest::ExternalMemory, caps);
    EXPECT_EQ(c.path, InteropPath::HostCopy);
    EXPECT_NE(c.reason.find("cl_khr_external_memory_opaque_fd"), std::string::npos) << c.reason;
}

// Caps that wrongly claim external memory on PoCL: setting up the bridge fails with a reason.
TEST_F(ExternalMemoryTest, BridgeOnADeviceWithoutExternalMemoryThrowsAReason) {
    if (cc_->info().hasExtension("cl_khr_external_memory_opaque_fd"))
        GTEST_SKIP() << "this device has external memory";
    InteropCaps caps;
    caps.clExternalMemoryFd = caps.glMemoryObjectFd = caps.externalMemoryDevice = true;
    try {
        createBufferBridge(InteropPath::ExternalMemory, *cc_, 4096, caps);
        FAIL() << "the bridge was created";
    } catch (const Error& e) {
        EXPECT_FALSE(std::string(e.what()).empty());
    }
    // Importing into CL directly is refused up front, before any driver call.
    if (GLAD_GL_EXT_memory_object_fd) {
        auto memory = openExporter()->allocate(4096, true);
        try {
            importClBuffer(*cc_, *memory, 4096);
            FAIL() << "PoCL imported an fd";
        } catch (const Error& e) {
            EXPECT_NE(std::string(e.what()).find("cl_khr_external_memory_opaque_fd"),
                      std::string::npos);
        }
    }
}

// A texture asked to use external memory where it cannot falls back to host copy, says why, and
// still delivers exact texels.
TEST_F(ExternalMemoryTest, TextureFallsBackToHostCopyWithReason) {
    if (cc_->info().hasExtension("cl_khr_external_memory_opaque_fd"))
        GTEST_SKIP() << "this device has external memory";
    const int w = 37, h = 11;
    SharedTexture texture(*cc_, {InteropPath::ExternalMemory, "test"}, w, h);
    EXPECT_EQ(texture.path(), InteropPath::HostCopy);
    EXPECT_NE(texture.fallbackReason().find("external-memory failed"), std::string::npos)
        << texture.fallbackReason();
    const auto pixels = randomBytes(std::size_t(w) * h * 4, 3);
    cl::Buffer buf(cc_->context(), CL_MEM_READ_WRITE, pixels.size());
    cc_->queue().enqueueWriteBuffer(buf, CL_TRUE, 0, pixels.size(), pixels.data());
    texture.copyFrom(buf);
    EXPECT_EQ(texture.readBack(), pixels);
}

// ---- the full path, where the CL device imports memory (the H200; skipped on PoCL) ----------

bool fullPathHere(const ComputeContext& cc, std::string& why) {
    InteropCaps caps = detectClInteropCaps(cc.info().extensions);
    detectGlInteropCaps(caps);
    probeExternalMemory(cc, caps);
    why = caps.externalMemoryProbe;
    return caps.externalMemoryDevice;
}

// Every publish, in every slot, for awkward sizes: the GL buffer holds exactly the CL bytes.
// The bridges are torn down and rebuilt as a live switch and an N change do (external memory,
// host copy, external memory at another capacity), and each is exact from its first publish.
TEST_F(ExternalMemoryTest, BridgeIsByteExactInEverySlotAcrossSwitches) {
    std::string why;
    if (!fullPathHere(*cc_, why)) GTEST_SKIP() << why;
    InteropCaps caps = detectClInteropCaps(cc_->info().extensions);
    detectGlInteropCaps(caps);
    probeExternalMemory(*cc_, caps);
    unsigned seed = 11;
    const std::pair<InteropPath, std::size_t> sequence[] = {
        {InteropPath::ExternalMemory, 4099 * 16},
        {InteropPath::HostCopy, 4099 * 16},
        {InteropPath::ExternalMemory, 131 * 16},
        {InteropPath::ExternalMemory, 4099 * 16}};
    std::unique_ptr<BufferBridge> bridge;
    for (auto [path, capacity] : sequence) {
        bridge.reset();  // as NbodyDemo::applyInterop: the old one goes first
        bridge = createBufferBridge(path, *cc_, capacity, caps);
        ASSERT_EQ(bridge->path(), path);
        bridge->setLatency(0);
        for (int round = 0; round < 3; ++round) {
            for (std::size_t bytes : {std::size_t(16), std::size_t(31 * 16), capacity}) {
                const auto data = randomBytes(bytes, seed++);
                cl::Buffer src(cc_->context(), CL_MEM_READ_WRITE, bytes);
                cc_->queue().enqueueWriteBuffer(src, CL_TRUE, 0, bytes, data.data());
                bridge->publish(src, bytes);
                BridgeView v = bridge->view();
                ASSERT_TRUE(v.valid());
                const auto got = test::readGlBufferOnGpu(v.buffer, v.offset, bytes);
                bridge->drawn();
                ASSERT_EQ(got, data) << interopPathName(path) << ", capacity " << capacity
                                     << ", round " << round << ", " << bytes << " bytes";
            }
        }
    }
}

int openFds() {
    int n = 0;
    for ([[maybe_unused]] const auto& e : std::filesystem::directory_iterator("/proc/self/fd"))
        ++n;
    return n;
}

// Rebuilding the bridge (a live switch, an N change) leaves no file descriptor behind: GL and CL
// own the fds they imported, and release them with their objects.
TEST_F(ExternalMemoryTest, RebuildingTheBridgeLeaksNoFileDescriptors) {
    std::string why;
    if (!fullPathHere(*cc_, why)) GTEST_SKIP() << why;
    InteropCaps caps = detectClInteropCaps(cc_->info().extensions);
    detectGlInteropCaps(caps);
    probeExternalMemory(*cc_, caps);
    auto cycle = [&] {
        auto bridge = createBufferBridge(InteropPath::ExternalMemory, *cc_, 4096 * 16, caps);
        cl::Buffer src(cc_->context(), CL_MEM_READ_WRITE, 4096 * 16);
        bridge->publish(src, 4096 * 16);
        bridge->view();
        bridge->drawn();
    };
    cycle();  // the drivers' own one-time descriptors
    glFinish();
    const int before = openFds();
    for (int i = 0; i < 5; ++i)
        cycle();
    glFinish();
    EXPECT_EQ(openFds(), before) << "descriptors left by 5 bridge rebuilds";
}

InteropCaps fullCaps(const ComputeContext& cc) {
    InteropCaps caps = detectClInteropCaps(cc.info().extensions);
    detectGlInteropCaps(caps);
    probeExternalMemory(cc, caps);
    return caps;
}

// With exported semaphores the copy waits for GL's draws and GL's next use waits for the copy on
// the GPU, with no CPU wait: every publish, in every slot, at latency 0 and 1, is exact as GL
// reads it on the GPU. (A direct glGetBufferSubData of the imported buffer still returns stale
// bytes on NVIDIA's driver 580 even after the semaphore wait names the buffer: GL reads it
// through a cache the wait does not refresh. Drawing and GPU copies are not affected.)
TEST_F(ExternalMemoryTest, SemaphoreBridgeIsExactAtBothLatencies) {
    std::string why;
    if (!fullPathHere(*cc_, why)) GTEST_SKIP() << why;
    const InteropCaps caps = fullCaps(*cc_);
    if (!caps.externalSemaphores)
        GTEST_SKIP() << "no exported semaphores: " << caps.externalSyncProbe;
    const std::size_t capacity = 1031 * 16;
    auto bridge = createBufferBridge(InteropPath::ExternalMemory, *cc_, capacity, caps);
    EXPECT_NE(bridge->description().find("exported semaphores"), std::string::npos)
        << bridge->description();
    unsigned seed = 41;
    std::vector<std::vector<std::uint8_t>> published;  // publish number - 1 -> its bytes
    for (int latency : {0, 1}) {
        bridge->setLatency(latency);
        for (int frame = 0; frame < 12; ++frame) {
            const std::size_t bytes = frame % 3 == 2 ? capacity : std::size_t(16 * (frame + 1));
            published.push_back(randomBytes(bytes, seed++));
            cl::Buffer src(cc_->context(), CL_MEM_READ_WRITE, bytes);
            cc_->queue().enqueueWriteBuffer(src, CL_TRUE, 0, bytes, published.back().data());
            bridge->publish(src, bytes);
            const BridgeView v = bridge->view();
            ASSERT_TRUE(v.valid());
            ASSERT_LE(v.sequence, published.size());
            const auto got = test::readGlBufferOnGpu(v.buffer, v.offset, v.bytes);
            bridge->drawn();
            ASSERT_EQ(got, published[std::size_t(v.sequence - 1)])
                << "latency " << latency << ", frame " << frame << ", publish " << v.sequence;
        }
        bridge->finish();
    }
}

// Where semaphores are not offered (or not wanted), the same bridge synchronises on the CPU,
// says so, and is still exact through a GPU-side read.
TEST_F(ExternalMemoryTest, WithoutSemaphoresTheBridgeSaysItSyncsOnTheCpu) {
    std::string why;
    if (!fullPathHere(*cc_, why)) GTEST_SKIP() << why;
    InteropCaps caps = fullCaps(*cc_);
    caps.externalSemaphores = false;
    caps.externalSyncProbe = "turned off by the test";
    auto bridge = createBufferBridge(InteropPath::ExternalMemory, *cc_, 257 * 16, caps);
    EXPECT_NE(bridge->description().find("on the CPU (turned off by the test)"), std::string::npos)
        << bridge->description();
    bridge->setLatency(0);
    const auto data = randomBytes(257 * 16, 77);
    cl::Buffer src(cc_->context(), CL_MEM_READ_WRITE, data.size());
    cc_->queue().enqueueWriteBuffer(src, CL_TRUE, 0, data.size(), data.data());
    bridge->publish(src, data.size());
    const BridgeView v = bridge->view();
    ASSERT_TRUE(v.valid());
    EXPECT_EQ(test::readGlBufferOnGpu(v.buffer, v.offset, data.size()), data);
    bridge->drawn();
}

// The image lab's texture through external memory: CL -> texture and texture -> CL, exact.
TEST_F(ExternalMemoryTest, TextureThroughExternalMemoryIsExact) {
    std::string why;
    if (!fullPathHere(*cc_, why)) GTEST_SKIP() << why;
    const int w = 37, h = 11;
    SharedTexture texture(*cc_, {InteropPath::ExternalMemory, "test"}, w, h, 64, 20);
    ASSERT_EQ(texture.path(), InteropPath::ExternalMemory) << texture.fallbackReason();
    const auto pixels = randomBytes(std::size_t(w) * h * 4, 5);
    cl::Buffer buf(cc_->context(), CL_MEM_READ_WRITE, pixels.size());
    cc_->queue().enqueueWriteBuffer(buf, CL_TRUE, 0, pixels.size(), pixels.data());
    texture.copyFrom(buf);
    EXPECT_EQ(texture.readBack(), pixels);
    cl::Buffer back(cc_->context(), CL_MEM_READ_WRITE, pixels.size());
    texture.copyTo(back);
    std::vector<std::uint8_t> got(pixels.size());
    cc_->queue().enqueueReadBuffer(back, CL_TRUE, 0, got.size(), got.data());
    EXPECT_EQ(got, pixels);
    EXPECT_EQ(texture.path(), InteropPath::ExternalMemory) << texture.fallbackReason();
}

}  // namespace
}  // namespace clviz
