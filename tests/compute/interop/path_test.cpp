// The interop chooser is pure logic: every request against every combination of capabilities.
#include "compute/interop/interop_path.hpp"

#include <gtest/gtest.h>

#include "common/error.hpp"

namespace clviz {
namespace {

InteropCaps capsFromBits(unsigned bits) {
    InteropCaps c;
    c.clGlSharing = bits & 1;
    c.clContextSharesGl = bits & 2;
    c.clGlEvent = bits & 4;
    c.clExternalMemoryFd = bits & 8;
    c.glBufferStorage = bits & 16;
    c.glMemoryObjectFd = bits & 32;
    c.externalMemoryDevice = bits & 64;
    if (!c.externalMemoryDevice) c.externalMemoryProbe = "no Vulkan loader (test)";
    return c;
}

TEST(InteropPath, NamesRoundTrip) {
    for (auto r : {InteropRequest::Auto, InteropRequest::GlSharing, InteropRequest::HostCopy,
                   InteropRequest::ExternalMemory})
        EXPECT_EQ(parseInteropRequest(interopRequestName(r)), r);
    EXPECT_STREQ(interopPathName(InteropPath::GlSharing), "gl-sharing");
    EXPECT_STREQ(interopPathName(InteropPath::HostCopy), "host-copy");
    EXPECT_STREQ(interopPathName(InteropPath::ExternalMemory), "external-memory");
}

TEST(InteropPath, BadRequestListsValidValues) {
    try {
        parseInteropRequest("zero-copy");
        FAIL() << "no exception";
    } catch (const Error& e) {
        std::string m = e.what();
        EXPECT_NE(m.find("zero-copy"), std::string::npos);
        EXPECT_NE(m.find("host-copy"), std::string::npos);
    }
    EXPECT_THROW(parseInteropRequest(""), Error);
    EXPECT_THROW(parseInteropRequest("Host-Copy"), Error);
}

TEST(InteropPath, DetectsClExtensions) {
    auto c =
        detectClInteropCaps({"cl_khr_fp64", "cl_khr_gl_event", "cl_khr_external_memory_opaque_fd"});
    EXPECT_FALSE(c.clGlSharing);
    EXPECT_TRUE(c.clGlEvent);
    EXPECT_TRUE(c.clExternalMemoryFd);
    EXPECT_FALSE(c.clContextSharesGl);  // only the app knows that
    auto s = detectClInteropCaps({"cl_khr_gl_sharing"});
    EXPECT_TRUE(s.clGlSharing);
    EXPECT_FALSE(s.clGlEvent);
    // Substrings of other names must not match.
    EXPECT_FALSE(detectClInteropCaps({"cl_khr_gl_sharing_ext"}).clGlSharing);
}

// Every request x all 128 capability combinations.
TEST(InteropPath, EveryCombination) {
    for (unsigned bits = 0; bits < 128; ++bits) {
        InteropCaps caps = capsFromBits(bits);
        const bool sharingUsable = caps.clGlSharing && caps.clContextSharesGl;
        const bool externalUsable =
            caps.clExternalMemoryFd && caps.glMemoryObjectFd && caps.externalMemoryDevice;
        SCOPED_TRACE(describeInteropCaps(caps));

        // Auto: gl-sharing, then external memory, then host copy.
        auto autoChoice = chooseInteropPath(InteropRequest::Auto, caps);
        EXPECT_EQ(autoChoice.path, sharingUsable    ? InteropPath::GlSharing
                                   : externalUsable ? InteropPath::ExternalMemory
                                                    : InteropPath::HostCopy);
        EXPECT_EQ(autoChoice.reason.rfind("auto", 0), 0u);

        auto host = chooseInteropPath(InteropRequest::HostCopy, caps);
        EXPECT_EQ(host.path, InteropPath::HostCopy);
        EXPECT_NE(host.reason.find("forced"), std::string::npos);

        auto sharing = chooseInteropPath(InteropRequest::GlSharing, caps);
        if (sharingUsable) {
            EXPECT_EQ(sharing.path, InteropPath::GlSharing);
        } else {
            EXPECT_EQ(sharing.path, InteropPath::HostCopy);
            const char* expected =
                !caps.clGlSharing ? "no cl_khr_gl_sharing" : "not created with the GL context";
            EXPECT_NE(sharing.reason.find(expected), std::string::npos) << sharing.reason;
        }

        // External memory: chosen when all three hold, else host copy naming the first missing.
        auto ext = chooseInteropPath(InteropRequest::ExternalMemory, caps);
        const char* why = !caps.clExternalMemoryFd ? "cl_khr_external_memory_opaque_fd"
                          : !caps.glMemoryObjectFd ? "GL_EXT_memory_object_fd"
                                                   : "no Vulkan loader (test)";
        if (externalUsable) {
            EXPECT_EQ(ext.path, InteropPath::ExternalMemory);
            EXPECT_NE(ext.reason.find("forced"), std::string::npos);
        } else {
            EXPECT_EQ(ext.path, InteropPath::HostCopy);
            EXPECT_NE(ext.reason.find(why), std::string::npos) << ext.reason;
        }

        // Auto's fallback names both faster paths' blockers.
        if (autoChoice.path == InteropPath::HostCopy) {
            EXPECT_NE(autoChoice.reason.find("no gl-sharing"), std::string::npos);
            EXPECT_NE(autoChoice.reason.find(why), std::string::npos) << autoChoice.reason;
        }

        // Fallbacks say how the host copy will work.
        for (const auto* c : {&host, &ext, &autoChoice}) {
            if (c->path != InteropPath::HostCopy) continue;
            const char* how = caps.glBufferStorage ? "persistently mapped" : "glBufferSubData";
            EXPECT_NE(c->reason.find(how), std::string::npos) << c->reason;
        }
    }
}

// PoCL's caps (what the CI box has): no sharing, no external memory; the chooser says both.
TEST(InteropPath, PoclFallsBackNamingBothPaths) {
    InteropCaps caps = detectClInteropCaps({"cl_khr_fp64", "cl_khr_byte_addressable_store"});
    caps.glBufferStorage = true;
    caps.glMemoryObjectFd = true;  // llvmpipe offers it
    caps.externalMemoryProbe = "the OpenCL device has no cl_khr_external_memory_opaque_fd";
    auto c = chooseInteropPath(InteropRequest::Auto, caps);
    EXPECT_EQ(c.path, InteropPath::HostCopy);
    EXPECT_NE(c.reason.find("cl_khr_gl_sharing"), std::string::npos) << c.reason;
    EXPECT_NE(c.reason.find("cl_khr_external_memory_opaque_fd"), std::string::npos) << c.reason;
}

// The H200's caps: no gl_sharing, external memory on both sides, Vulkan device matched.
TEST(InteropPath, NvidiaWithoutSharingPicksExternalMemory) {
    InteropCaps caps = detectClInteropCaps(
        {"cl_khr_gl_event", "cl_khr_external_memory", "cl_khr_external_memory_opaque_fd"});
    caps.glBufferStorage = caps.glMemoryObjectFd = true;
    caps.externalMemoryDevice = true;
    caps.externalMemoryProbe = "Vulkan device NVIDIA H200 exports memory";
    auto c = chooseInteropPath(InteropRequest::Auto, caps);
    EXPECT_EQ(c.path, InteropPath::ExternalMemory);
    EXPECT_NE(c.reason.find("NVIDIA H200"), std::string::npos) << c.reason;
    // A UUID mismatch found by the probe is the reason shown.
    caps.externalMemoryDevice = false;
    caps.externalMemoryProbe = "the GL context runs on another device (GL UUID a, CL UUID b)";
    c = chooseInteropPath(InteropRequest::ExternalMemory, caps);
    EXPECT_EQ(c.path, InteropPath::HostCopy);
    EXPECT_NE(c.reason.find("another device"), std::string::npos) << c.reason;
}

// External memory's reason says how GL and CL take turns: exported semaphores where the probe
// found them, else the CPU and why; the path itself is chosen either way.
TEST(InteropPath, ExternalMemoryReasonNamesTheSynchronisation) {
    InteropCaps caps = detectClInteropCaps(
        {"cl_khr_external_memory_opaque_fd", "cl_khr_external_semaphore_opaque_fd"});
    EXPECT_TRUE(caps.clExternalSemaphoreFd);
    EXPECT_FALSE(detectClInteropCaps({"cl_khr_external_semaphore"}).clExternalSemaphoreFd);
    caps.glMemoryObjectFd = caps.glSemaphoreFd = true;
    caps.externalMemoryDevice = true;
    caps.externalMemoryProbe = "Vulkan device NVIDIA H200 exports memory";
    caps.externalSemaphores = true;
    caps.externalSyncProbe = "exported semaphores";
    for (auto request : {InteropRequest::Auto, InteropRequest::ExternalMemory}) {
        auto c = chooseInteropPath(request, caps);
        EXPECT_EQ(c.path, InteropPath::ExternalMemory);
        EXPECT_NE(c.reason.find("synchronised by exported semaphores"), std::string::npos)
            << c.reason;
    }
    caps.externalSemaphores = false;
    caps.externalSyncProbe = "the GL context has no GL_EXT_semaphore_fd";
    auto c = chooseInteropPath(InteropRequest::Auto, caps);
    EXPECT_EQ(c.path, InteropPath::ExternalMemory);
    EXPECT_NE(c.reason.find("synchronised on the CPU (the GL context has no GL_EXT_semaphore_fd)"),
              std::string::npos)
        << c.reason;
    const std::string described = describeInteropCaps(caps);
    EXPECT_NE(described.find("external_semaphore_opaque_fd yes"), std::string::npos) << described;
    EXPECT_NE(described.find("semaphore_fd yes"), std::string::npos) << described;
}

}  // namespace
}  // namespace clviz
