// The gl-sharing path where no driver offers cl_khr_gl_sharing (none that clviz has run on does):
// an emulation of the extension takes the place of the driver's entry points
// (compute/interop/gl_sharing_driver.hpp) and keeps its contract the simple way. A CL object made
// "from" a GL buffer or texture is a real CL buffer or image of the same size; acquiring it copies
// GL's bytes into it, releasing it copies CL's bytes back into the GL object. So GL sees exactly
// what CL wrote between acquire and release and nothing else, and the tests can check both the
// call sequence (which object, in what order, waiting on what) and the bytes GL ends up with.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "common/error.hpp"
#include "compute/core/compute_context.hpp"
#include "compute/interop/buffer_bridge.hpp"
#include "compute/interop/gl_sharing_driver.hpp"
#include "compute/interop/texture_share.hpp"
#include "tests/compute/interop/gl_context.hpp"

namespace clviz {
namespace {

using test::randomBytes;

class GlSharingEmulator {
  public:
    struct Options {
        bool supported = true;
        bool glEvent = true;          // the platform has clCreateEventFromGLsyncKHR
        bool glEventFails = false;    // ... which then refuses every fence
        int refuseObjectNumber = -1;  // this creation (0-based) fails with CL_INVALID_GL_OBJECT
    };

    struct Call {
        std::string what;  // "create", "acquire", "release", "gl-delete", "gl-sync-event"
        GLuint name = 0;   // the GL object
        cl_uint waits = 0;
        int clReferences = -1;  // gl-delete: references clviz still held on the CL alias
    };

    explicit GlSharingEmulator(Options options)
        : options_(options),
          override_(driver()),
          savedDeleteBuffers_(glad_glDeleteBuffers),
          savedDeleteTextures_(glad_glDeleteTextures) {
        active_ = this;
        glad_glDeleteBuffers = &deleteBuffers;
        glad_glDeleteTextures = &deleteTextures;
    }
    ~GlSharingEmulator() {
        glad_glDeleteBuffers = savedDeleteBuffers_;
        glad_glDeleteTextures = savedDeleteTextures_;
        active_ = nullptr;
        for (auto& [mem, object] : objects_)
            clReleaseMemObject(mem);  // our own reference (see create)
    }

    const std::vector<Call>& calls() const { return calls_; }
    std::vector<Call> callsOf(const std::string& what) const {
        std::vector<Call> out;
        for (const auto& c : calls_)
            if (c.what == what) out.push_back(c);
        return out;
    }
    std::set<GLsync> fencesTurnedIntoEvents() const { return fences_; }
    bool anyAcquired() const {
        for (const auto& [mem, object] : objects_)
            if (object.acquired) return true;
        return false;
    }
    int created() const { return int(objects_.size()); }
    int attempts() const { return attempts_; }

  private:
    struct Object {
        GLuint name = 0;
        bool texture = false;
        int width = 0, height = 0;  // textures
        std::size_t bytes = 0;
        bool acquired = false;
    };

    GlSharingDriver driver() {
        GlSharingDriver d;
        d.supports = [this](const cl::Platform&, const cl::Device&) { return options_.supported; };
        d.createFromGlBuffer = [this](cl_context ctx, cl_mem_flags, cl_GLuint name, cl_int* err) {
            return createBuffer(ctx, name, err);
        };
        d.createFromGlTexture = [this](cl_context ctx, cl_mem_flags, cl_GLenum target, cl_GLint,
                                       cl_GLuint name, cl_int* err) {
            EXPECT_EQ(target, cl_GLenum(GL_TEXTURE_2D));
            return createImage(ctx, name, err);
        };
        d.acquire = [this](cl_command_queue q, cl_uint n, const cl_mem* objects, cl_uint waits,
                           const cl_event* waitList, cl_event* event) {
            return enqueue(true, q, n, objects, waits, waitList, event);
        };
        d.release = [this](cl_command_queue q, cl_uint n, const cl_mem* objects, cl_uint waits,
                           const cl_event* waitList, cl_event* event) {
            return enqueue(false, q, n, objects, waits, waitList, event);
        };
        d.eventFromGlSync = [this](cl_platform_id) -> GlSharingDriver::EventFromGlSync {
            if (!options_.glEvent) return {};
            return [this](cl_context ctx, cl_GLsync sync, cl_int* err) {
                return eventFromSync(ctx, sync, err);
            };
        };
        return d;
    }

    bool refuse(cl_int* err) {
        if (attempts_++ != options_.refuseObjectNumber) return false;
        *err = CL_INVALID_GL_OBJECT;
        return true;
    }

    cl_mem remember(cl_mem mem, Object object) {
        calls_.push_back({"create", object.name});
        clRetainMemObject(mem);  // ours: lets gl-delete see how many references clviz still holds
        objects_[mem] = object;
        return mem;
    }

    cl_mem createBuffer(cl_context ctx, GLuint name, cl_int* err) {
        if (refuse(err)) return nullptr;
        EXPECT_TRUE(glIsBuffer(name));
        GLint64 size = 0;
        glBindBuffer(GL_COPY_READ_BUFFER, name);
        glGetBufferParameteri64v(GL_COPY_READ_BUFFER, GL_BUFFER_SIZE, &size);
        glBindBuffer(GL_COPY_READ_BUFFER, 0);
        cl_mem mem = clCreateBuffer(ctx, CL_MEM_READ_WRITE, std::size_t(size), nullptr, err);
        if (mem == nullptr) return nullptr;
        return remember(mem, {name, false, 0, 0, std::size_t(size)});
    }

    cl_mem createImage(cl_context ctx, GLuint name, cl_int* err) {
        if (refuse(err)) return nullptr;
        GLint w = 0, h = 0;
        glBindTexture(GL_TEXTURE_2D, name);
        glGetTexLevelParameteriv(GL_TEXTURE_2D, 0, GL_TEXTURE_WIDTH, &w);
        glGetTexLevelParameteriv(GL_TEXTURE_2D, 0, GL_TEXTURE_HEIGHT, &h);
        glBindTexture(GL_TEXTURE_2D, 0);
        const cl_image_format format{CL_RGBA, CL_UNORM_INT8};
        cl_image_desc desc{};
        desc.image_type = CL_MEM_OBJECT_IMAGE2D;
        desc.image_width = std::size_t(w);
        desc.image_height = std::size_t(h);
        cl_mem mem = clCreateImage(ctx, CL_MEM_READ_WRITE, &format, &desc, nullptr, err);
        if (mem == nullptr) return nullptr;
        return remember(mem, {name, true, w, h, std::size_t(w) * std::size_t(h) * 4});
    }

    cl_event eventFromSync(cl_context ctx, cl_GLsync sync, cl_int* err) {
        calls_.push_back({"gl-sync-event", 0});
        if (options_.glEventFails) {
            *err = CL_INVALID_GL_OBJECT;
            return nullptr;
        }
        EXPECT_TRUE(glIsSync(reinterpret_cast<GLsync>(sync)));
        fences_.insert(reinterpret_cast<GLsync>(sync));
        // The fence's GL work is complete once GL finished; then the event is too.
        glClientWaitSync(reinterpret_cast<GLsync>(sync), GL_SYNC_FLUSH_COMMANDS_BIT, ~0ull);
        cl_event e = clCreateUserEvent(ctx, err);
        if (e != nullptr) clSetUserEventStatus(e, CL_COMPLETE);
        return e;
    }

    // Acquire: wait for what the caller said to wait for, then CL sees GL's bytes. Release: CL's
    // bytes (everything enqueued before it) reach the GL object. Both synchronous, which the
    // extension allows; the returned event is a marker on the queue.
    cl_int enqueue(bool acquire, cl_command_queue q, cl_uint n, const cl_mem* mems, cl_uint waits,
                   const cl_event* waitList, cl_event* event) {
        for (cl_uint i = 0; i < n; ++i) {
            auto it = objects_.find(mems[i]);
            if (it == objects_.end()) return CL_INVALID_GL_OBJECT;
            Object& o = it->second;
            calls_.push_back({acquire ? "acquire" : "release", o.name, waits});
            // The extension's rule: acquire only what is released, release only what is acquired.
            if (o.acquired == acquire) return CL_INVALID_OPERATION;
            if (waits > 0 && clWaitForEvents(waits, waitList) != CL_SUCCESS)
                return CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST;
            clFinish(q);
            if (acquire)
                glToCl(q, mems[i], o);
            else
                clToGl(q, mems[i], o);
            o.acquired = acquire;
        }
        return clEnqueueMarkerWithWaitList(q, 0, nullptr, event);
    }

    static void glToCl(cl_command_queue q, cl_mem mem, const Object& o) {
        std::vector<std::uint8_t> bytes(o.bytes);
        if (o.texture) {
            glBindTexture(GL_TEXTURE_2D, o.name);
            glPixelStorei(GL_PACK_ALIGNMENT, 4);
            glGetTexImage(GL_TEXTURE_2D, 0, GL_RGBA, GL_UNSIGNED_BYTE, bytes.data());
            glBindTexture(GL_TEXTURE_2D, 0);
            const std::size_t origin[3] = {0, 0, 0};
            const std::size_t region[3] = {std::size_t(o.width), std::size_t(o.height), 1};
            clEnqueueWriteImage(q, mem, CL_TRUE, origin, region, 0, 0, bytes.data(), 0, nullptr,
                                nullptr);
        } else {
            glBindBuffer(GL_COPY_READ_BUFFER, o.name);
            glGetBufferSubData(GL_COPY_READ_BUFFER, 0, GLsizeiptr(o.bytes), bytes.data());
            glBindBuffer(GL_COPY_READ_BUFFER, 0);
            clEnqueueWriteBuffer(q, mem, CL_TRUE, 0, o.bytes, bytes.data(), 0, nullptr, nullptr);
        }
    }

    static void clToGl(cl_command_queue q, cl_mem mem, const Object& o) {
        std::vector<std::uint8_t> bytes(o.bytes);
        if (o.texture) {
            const std::size_t origin[3] = {0, 0, 0};
            const std::size_t region[3] = {std::size_t(o.width), std::size_t(o.height), 1};
            clEnqueueReadImage(q, mem, CL_TRUE, origin, region, 0, 0, bytes.data(), 0, nullptr,
                               nullptr);
            glBindTexture(GL_TEXTURE_2D, o.name);
            glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
            glPixelStorei(GL_UNPACK_ROW_LENGTH, 0);
            glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, o.width, o.height, GL_RGBA, GL_UNSIGNED_BYTE,
                            bytes.data());
            glBindTexture(GL_TEXTURE_2D, 0);
        } else {
            clEnqueueReadBuffer(q, mem, CL_TRUE, 0, o.bytes, bytes.data(), 0, nullptr, nullptr);
            glBindBuffer(GL_COPY_WRITE_BUFFER, o.name);
            glBufferSubData(GL_COPY_WRITE_BUFFER, 0, GLsizeiptr(o.bytes), bytes.data());
            glBindBuffer(GL_COPY_WRITE_BUFFER, 0);
        }
    }

    // GL deletes: note how many references clviz still holds on each CL alias at that moment.
    void noteDeletes(GLsizei n, const GLuint* names, bool textures) {
        for (GLsizei i = 0; i < n; ++i) {
            int references = -1;
            for (const auto& [mem, o] : objects_) {
                if (o.name != names[i] || o.texture != textures) continue;
                cl_uint count = 0;
                clGetMemObjectInfo(mem, CL_MEM_REFERENCE_COUNT, sizeof count, &count, nullptr);
                references = int(count) - 1;  // less our own
            }
            calls_.push_back({"gl-delete", names[i], 0, references});
        }
    }
    static void GLAD_API_PTR deleteBuffers(GLsizei n, const GLuint* names) {
        active_->noteDeletes(n, names, false);
        active_->savedDeleteBuffers_(n, names);
    }
    static void GLAD_API_PTR deleteTextures(GLsizei n, const GLuint* names) {
        active_->noteDeletes(n, names, true);
        active_->savedDeleteTextures_(n, names);
    }

    Options options_;
    GlSharingDriverOverride override_;
    PFNGLDELETEBUFFERSPROC savedDeleteBuffers_;
    PFNGLDELETETEXTURESPROC savedDeleteTextures_;
    std::map<cl_mem, Object> objects_;
    std::vector<Call> calls_;
    std::set<GLsync> fences_;
    int attempts_ = 0;
    static inline GlSharingEmulator* active_ = nullptr;
};

class GlSharingTest : public test::GlComputeTest {
  protected:
    static InteropCaps caps(bool glEvent) {
        InteropCaps c;
        c.clGlSharing = true;
        c.clContextSharesGl = true;
        c.clGlEvent = glEvent;
        return c;
    }

    // Publishes awkward sizes twice round the ring; GL must hold exactly each publish's bytes.
    void publishAndCheck(BufferBridge& bridge, int publishes) {
        const std::size_t bodies[] = {1, 3, 31, 4099, 5000};
        for (int i = 0; i < publishes; ++i) {
            const std::size_t bytes = bodies[i % 5] * 16;
            const auto data = randomBytes(bytes, unsigned(i + 1));
            cl::Buffer src(cc_->context(), CL_MEM_READ_WRITE, bytes);
            cc_->queue().enqueueWriteBuffer(src, CL_TRUE, 0, bytes, data.data());
            bridge.publish(src, bytes);
            BridgeView v = bridge.view();
            ASSERT_TRUE(v.valid());
            ASSERT_EQ(v.bytes, bytes);
            ASSERT_EQ(test::readGlBuffer(v.buffer, v.offset, bytes), data) << "publish " << i;
            bridge.drawn();
        }
    }

    // Each publish is acquire then release of one object, in ring order over the created ones.
    static void expectAcquireReleasePairs(const GlSharingEmulator& emu, int publishes) {
        const auto created = emu.callsOf("create");
        ASSERT_EQ(created.size(), 3u);
        std::vector<GlSharingEmulator::Call> sequence;
        for (const auto& c : emu.calls())
            if (c.what == "acquire" || c.what == "release") sequence.push_back(c);
        ASSERT_EQ(sequence.size(), std::size_t(2 * publishes));
        for (int i = 0; i < publishes; ++i) {
            EXPECT_EQ(sequence[2 * i].what, "acquire");
            EXPECT_EQ(sequence[2 * i + 1].what, "release");
            EXPECT_EQ(sequence[2 * i].name, created[i % 3].name) << "publish " << i;
            EXPECT_EQ(sequence[2 * i + 1].name, created[i % 3].name);
        }
        EXPECT_FALSE(emu.anyAcquired());
    }
};

TEST_F(GlSharingTest, BridgeDeliversEveryPublishExactlyAndWaitsOnTheGlFence) {
    GlSharingEmulator emu({});
    const int publishes = 8;
    {
        auto bridge = createBufferBridge(InteropPath::GlSharing, *cc_, 5000 * 16, caps(true));
        bridge->setLatency(0);
        EXPECT_EQ(bridge->path(), InteropPath::GlSharing);
        EXPECT_NE(bridge->description().find("cl_khr_gl_event"), std::string::npos)
            << bridge->description();
        publishAndCheck(*bridge, publishes);
        expectAcquireReleasePairs(emu, publishes);
        // From the second round on each slot had been drawn from: its acquire waits on the event
        // made from that draw's fence, and no CPU wait is needed.
        const auto acquires = emu.callsOf("acquire");
        for (int i = 0; i < publishes; ++i)
            EXPECT_EQ(acquires[i].waits, i < 3 ? 0u : 1u) << "publish " << i;
        EXPECT_EQ(emu.callsOf("gl-sync-event").size(), std::size_t(publishes - 3));
        EXPECT_EQ(emu.fencesTurnedIntoEvents().size(), std::size_t(publishes - 3));
    }
    // Destroyed: every CL alias was released before its GL buffer was deleted.
    const auto deletes = emu.callsOf("gl-delete");
    ASSERT_EQ(deletes.size(), 3u);
    for (const auto& d : deletes)
        EXPECT_EQ(d.clReferences, 0) << "GL buffer " << d.name << " deleted while CL held it";
}

TEST_F(GlSharingTest, WithoutGlEventTheBridgeWaitsForGlOnTheCpu) {
    GlSharingEmulator emu({/*supported*/ true, /*glEvent*/ false});
    auto bridge = createBufferBridge(InteropPath::GlSharing, *cc_, 5000 * 16, caps(false));
    bridge->setLatency(0);
    EXPECT_NE(bridge->description().find("GL fence on CPU"), std::string::npos)
        << bridge->description();
    publishAndCheck(*bridge, 7);
    expectAcquireReleasePairs(emu, 7);
    for (const auto& a : emu.callsOf("acquire"))
        EXPECT_EQ(a.waits, 0u);
    EXPECT_TRUE(emu.callsOf("gl-sync-event").empty());
}

TEST_F(GlSharingTest, ARefusedGlFenceEventFallsBackToTheCpuWait) {
    GlSharingEmulator::Options o;
    o.glEventFails = true;
    GlSharingEmulator emu(o);
    auto bridge = createBufferBridge(InteropPath::GlSharing, *cc_, 5000 * 16, caps(true));
    bridge->setLatency(0);
    publishAndCheck(*bridge, 7);
    expectAcquireReleasePairs(emu, 7);
    EXPECT_EQ(emu.callsOf("gl-sync-event").size(), 4u);  // tried for every drawn slot
    for (const auto& a : emu.callsOf("acquire"))
        EXPECT_EQ(a.waits, 0u);
}

TEST_F(GlSharingTest, ARefusedBufferSaysWhyAndLeavesNothingBehind) {
    GlSharingEmulator::Options o;
    o.refuseObjectNumber = 1;  // the second of three
    GlSharingEmulator emu(o);
    try {
        createBufferBridge(InteropPath::GlSharing, *cc_, 4096, caps(true));
        FAIL() << "a refused clCreateFromGLBuffer was accepted";
    } catch (const Error& e) {
        const std::string why = e.what();
        EXPECT_NE(why.find("clCreateFromGLBuffer"), std::string::npos) << why;
        EXPECT_NE(why.find("CL_INVALID_GL_OBJECT"), std::string::npos) << why;
    }
    EXPECT_EQ(emu.created(), 1);
    const auto deletes = emu.callsOf("gl-delete");
    ASSERT_EQ(deletes.size(), 3u);  // all three GL buffers, the refused one's included
    for (const auto& d : deletes) {
        EXPECT_FALSE(glIsBuffer(d.name));
        EXPECT_LE(d.clReferences, 0) << "GL buffer " << d.name << " deleted while CL held it";
    }
}

TEST_F(GlSharingTest, ADeviceWithoutTheExtensionIsNeverAskedToShare) {
    GlSharingEmulator emu({/*supported*/ false});
    try {
        createBufferBridge(InteropPath::GlSharing, *cc_, 4096, caps(true));
        FAIL() << "gl-sharing was set up on a device without the extension";
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find("does not list cl_khr_gl_sharing"), std::string::npos)
            << e.what();
    }
    SharedTexture texture(*cc_, {InteropPath::GlSharing, "test"}, 5, 3);
    EXPECT_EQ(texture.path(), InteropPath::HostCopy);
    EXPECT_NE(texture.fallbackReason().find("no cl_khr_gl_sharing"), std::string::npos)
        << texture.fallbackReason();
    EXPECT_EQ(emu.attempts(), 0);
}

TEST_F(GlSharingTest, TextureCopiesBothWaysThroughTheSharedImage) {
    GlSharingEmulator emu({});
    for (auto [w, h] : {std::pair{1, 1}, std::pair{37, 23}, std::pair{131, 7}}) {
        {
            SharedTexture texture(*cc_, {InteropPath::GlSharing, "test"}, w, h);
            ASSERT_EQ(texture.path(), InteropPath::GlSharing) << texture.fallbackReason();
            const std::size_t bytes = texture.bytes();
            // CL -> GL: the image lab's result.
            const auto result = randomBytes(bytes, unsigned(w * 1000 + h));
            cl::Buffer pixels(cc_->context(), CL_MEM_READ_WRITE, bytes);
            cc_->queue().enqueueWriteBuffer(pixels, CL_TRUE, 0, bytes, result.data());
            texture.copyFrom(pixels);
            EXPECT_EQ(texture.readBack(), result) << w << "x" << h;
            // GL -> CL: a texture GL owns (the loaded source image) read by a filter.
            const auto source = randomBytes(bytes, unsigned(w + h));
            texture.upload(source.data());
            cl::Buffer back(cc_->context(), CL_MEM_READ_WRITE, bytes);
            texture.copyTo(back);
            std::vector<std::uint8_t> got(bytes);
            cc_->queue().enqueueReadBuffer(back, CL_TRUE, 0, bytes, got.data());
            EXPECT_EQ(got, source) << w << "x" << h;
            EXPECT_FALSE(emu.anyAcquired());
        }
        const auto deletes = emu.callsOf("gl-delete");
        ASSERT_FALSE(deletes.empty());
        EXPECT_EQ(deletes.back().clReferences, 0) << "texture deleted while CL held its image";
    }
}

TEST_F(GlSharingTest, ARefusedTextureFallsBackToHostCopyAndSaysWhy) {
    GlSharingEmulator::Options o;
    o.refuseObjectNumber = 0;
    GlSharingEmulator emu(o);
    SharedTexture texture(*cc_, {InteropPath::GlSharing, "test"}, 19, 11);
    EXPECT_EQ(texture.path(), InteropPath::HostCopy);
    const std::string why = texture.fallbackReason();
    EXPECT_NE(why.find("clCreateFromGLTexture"), std::string::npos) << why;
    EXPECT_NE(why.find("CL_INVALID_GL_OBJECT"), std::string::npos) << why;
    const auto result = randomBytes(texture.bytes(), 7);
    cl::Buffer pixels(cc_->context(), CL_MEM_READ_WRITE, texture.bytes());
    cc_->queue().enqueueWriteBuffer(pixels, CL_TRUE, 0, texture.bytes(), result.data());
    texture.copyFrom(pixels);
    EXPECT_EQ(texture.readBack(), result);
    EXPECT_TRUE(emu.callsOf("acquire").empty());
}

}  // namespace
}  // namespace clviz
