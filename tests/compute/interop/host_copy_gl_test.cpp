// The host-copy bridge delivers the CL buffer's bytes to GL exactly, in every slot, for awkward
// sizes, with and without persistent mapping; the other paths fail with a reason, not a crash.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <memory>
#include <vector>

#include "common/error.hpp"
#include "compute/core/compute_context.hpp"
#include "compute/interop/buffer_bridge.hpp"
#include "tests/compute/interop/gl_context.hpp"

namespace clviz {
namespace {

class HostCopyBridgeTest : public test::GlComputeTest {
  protected:
    InteropCaps caps(bool bufferStorage) const {
        InteropCaps c = detectClInteropCaps(cc_->info().extensions);
        detectGlInteropCaps(c);
        c.glBufferStorage = c.glBufferStorage && bufferStorage;
        return c;
    }
};

// Every body count here is a float4 count; the sizes cover one body, primes and a ragged size
// that is not a multiple of the 256-byte slot alignment.
void checkByteExact(ComputeContext& cc, BufferBridge& bridge, std::size_t capacityBodies) {
    const std::size_t sizes[] = {1, 3, 31, 4099, capacityBodies};
    unsigned seed = 1;
    for (int round = 0; round < 2; ++round) {  // twice round the slot ring, and more
        for (std::size_t bodies : sizes) {
            const std::size_t bytes = bodies * 16;
            const auto data = test::randomBytes(bytes, seed++);
            cl::Buffer src(cc.context(), CL_MEM_READ_WRITE, bytes);
            cc.queue().enqueueWriteBuffer(src, CL_TRUE, 0, bytes, data.data());
            bridge.publish(src, bytes);
            bridge.setLatency(0);
            BridgeView v = bridge.view();
            ASSERT_TRUE(v.valid());
            ASSERT_EQ(v.bytes, bytes);
            const auto got = test::readGlBuffer(v.buffer, v.offset, bytes);
            ASSERT_EQ(glGetError(), GLenum(GL_NO_ERROR));
            // What the CL buffer holds now, read back independently.
            std::vector<std::uint8_t> cl(bytes);
            cc.queue().enqueueReadBuffer(src, CL_TRUE, 0, bytes, cl.data());
            ASSERT_EQ(cl, data);
            ASSERT_EQ(0, std::memcmp(got.data(), cl.data(), bytes))
                << "bodies=" << bodies << " round=" << round;
            bridge.drawn();
        }
    }
}

TEST_F(HostCopyBridgeTest, PersistentMappingIsByteExact) {
    auto c = caps(true);
    if (!c.glBufferStorage) GTEST_SKIP() << "GL context has no buffer storage";
    const std::size_t capacity = 5000;
    auto bridge = createBufferBridge(InteropPath::HostCopy, *cc_, capacity * 16, c);
    EXPECT_EQ(bridge->path(), InteropPath::HostCopy);
    EXPECT_NE(bridge->description().find("persistently mapped"), std::string::npos);
    checkByteExact(*cc_, *bridge, capacity);
}

// Every way host copy can reach GL memory, whatever this device would pick by itself.
TEST_F(HostCopyBridgeTest, EveryStagingVariantIsByteExact) {
    const std::size_t capacity = 4500;
    struct Variant {
        bool persistent;
        HostCopyStaging staging;
        const char* expect;
    };
    for (Variant v :
         {Variant{true, HostCopyStaging::Direct, "straight into a persistently"},
          Variant{true, HostCopyStaging::Pinned, "pinned memory, then memcpy"},
          Variant{false, HostCopyStaging::Pinned, "pinned memory, then glBufferSubData"},
          Variant{false, HostCopyStaging::Direct, "host memory, then glBufferSubData"}}) {
        if (v.persistent && !caps(true).glBufferStorage) continue;
        auto bridge = createHostCopyBridge(*cc_, capacity * 16, v.persistent, v.staging);
        SCOPED_TRACE(bridge->description());
        EXPECT_NE(bridge->description().find(v.expect), std::string::npos);
        checkByteExact(*cc_, *bridge, capacity);
    }
}

// Latency 1: view() shows at least the publish before the newest and never an unfinished one;
// after finish() it shows the newest. Each publish carries its own sequence number as data.
TEST_F(HostCopyBridgeTest, PipelinedViewNeverShowsPartialData) {
    const std::size_t bodies = 20000;
    const std::size_t bytes = bodies * 16;
    auto bridge = createBufferBridge(InteropPath::HostCopy, *cc_, bytes, caps(true));
    EXPECT_FALSE(bridge->view().valid());  // nothing published yet
    cl::Buffer src(cc_->context(), CL_MEM_READ_WRITE, bytes);
    for (std::uint32_t frame = 1; frame <= 12; ++frame) {
        std::vector<std::uint32_t> fill(bytes / 4, frame);
        cc_->queue().enqueueWriteBuffer(src, CL_FALSE, 0, bytes, fill.data());
        bridge->publish(src, bytes);
        cc_->queue().finish();  // `fill` dies at the end of this iteration
        BridgeView v = bridge->view();
        ASSERT_TRUE(v.valid());
        ASSERT_GE(v.sequence + 1, frame);
        std::vector<std::uint32_t> got(bytes / 4);
        glBindBuffer(GL_COPY_READ_BUFFER, v.buffer);
        glGetBufferSubData(GL_COPY_READ_BUFFER, v.offset, GLsizeiptr(bytes), got.data());
        glBindBuffer(GL_COPY_READ_BUFFER, 0);
        for (std::size_t i = 0; i < got.size(); ++i)
            ASSERT_EQ(got[i], std::uint32_t(v.sequence)) << "word " << i << " frame " << frame;
        bridge->drawn();
    }
    bridge->finish();
    EXPECT_EQ(bridge->view().sequence, 12u);
    EXPECT_GE(bridge->lastTiming().deviceMs, 0.0);
    EXPECT_EQ(bridge->lastTiming().bytes, bytes);
}

TEST_F(HostCopyBridgeTest, PublishLargerThanCapacityIsRefused) {
    auto bridge = createBufferBridge(InteropPath::HostCopy, *cc_, 64, caps(true));
    cl::Buffer src(cc_->context(), CL_MEM_READ_WRITE, 128);
    EXPECT_THROW(bridge->publish(src, 128), Error);
    EXPECT_THROW(createBufferBridge(InteropPath::HostCopy, *cc_, 0, caps(true)), Error);
}

TEST_F(HostCopyBridgeTest, UnavailablePathsThrowWithReason) {
    InteropCaps c = caps(true);
    c.clGlSharing = false;
    try {
        createBufferBridge(InteropPath::GlSharing, *cc_, 1024, c);
        FAIL() << "gl-sharing without cl_khr_gl_sharing did not throw";
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find("cl_khr_gl_sharing"), std::string::npos);
    }
    c.clGlSharing = true;
    c.clContextSharesGl = false;
    EXPECT_THROW(createBufferBridge(InteropPath::GlSharing, *cc_, 1024, c), Error);
    // External memory on PoCL: the device has no cl_khr_external_memory_opaque_fd, and a claim
    // that it has (caps forced) is caught when the CL import is refused, never a crash.
    c.clExternalMemoryFd = false;
    try {
        createBufferBridge(InteropPath::ExternalMemory, *cc_, 1024, c);
        FAIL();
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find("cl_khr_external_memory_opaque_fd"),
                  std::string::npos);
    }
    c.clExternalMemoryFd = c.glMemoryObjectFd = true;
    EXPECT_THROW(createBufferBridge(InteropPath::ExternalMemory, *cc_, 1024, c), Error);
}

}  // namespace
}  // namespace clviz
