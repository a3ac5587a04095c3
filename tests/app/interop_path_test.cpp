// The interop chooser is pure logic: every request against every combination of capabilities.
#include "compute/interop/interop_path.hpp"

#include <gtest/gtest.h>

#include "compute/error.hpp"

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

// Every request x all 64 capability combinations.
TEST(InteropPath, EveryCombination) {
    for (unsigned bits = 0; bits < 64; ++bits) {
        InteropCaps caps = capsFromBits(bits);
        const bool sharingUsable = caps.clGlSharing && caps.clContextSharesGl;
        SCOPED_TRACE(describeInteropCaps(caps));

        auto autoChoice = chooseInteropPath(InteropRequest::Auto, caps);
        EXPECT_EQ(autoChoice.path, sharingUsable ? InteropPath::GlSharing : InteropPath::HostCopy);
        EXPECT_FALSE(autoChoice.reason.empty());
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

        // External memory is detected but never chosen yet: always falls back with a reason.
        auto ext = chooseInteropPath(InteropRequest::ExternalMemory, caps);
        EXPECT_EQ(ext.path, InteropPath::HostCopy);
        const char* why = !caps.clExternalMemoryFd ? "cl_khr_external_memory_opaque_fd"
                          : !caps.glMemoryObjectFd ? "GL_EXT_memory_object_fd"
                                                   : "not implemented yet";
        EXPECT_NE(ext.reason.find(why), std::string::npos) << ext.reason;

        // Fallbacks say how the host copy will work.
        for (const auto* c : {&host, &ext}) {
            const char* how = caps.glBufferStorage ? "persistently mapped" : "glBufferSubData";
            EXPECT_NE(c->reason.find(how), std::string::npos) << c->reason;
        }
    }
}

}  // namespace
}  // namespace clviz
