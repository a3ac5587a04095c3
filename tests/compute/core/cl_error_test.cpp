// OpenCL error names (complete to OpenCL 3.0 and the extension codes a driver can return) and
// the boundary that turns the bindings' cl::Error into a ClError keeping the code and the call.
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "compute/core/cl_boundary.hpp"
#include "compute/core/cl_error.hpp"

using namespace clviz;

TEST(ClErrorName, EveryCoreCodeOfOpenCl3HasItsName) {
    std::set<std::string> names;
    auto check = [&](int code) {
        const std::string name = clErrorName(code);
        EXPECT_EQ(name.rfind("CL_", 0), 0u) << code << ": " << name;
        EXPECT_TRUE(names.insert(name).second) << code << ": " << name << " twice";
    };
    check(0);
    for (int code = -1; code >= -19; --code)
        check(code);
    for (int code = -30; code >= -72; --code)
        check(code);
    EXPECT_STREQ(clErrorName(-5), "CL_OUT_OF_RESOURCES");
    EXPECT_STREQ(clErrorName(-54), "CL_INVALID_WORK_GROUP_SIZE");
    EXPECT_STREQ(clErrorName(-68), "CL_INVALID_DEVICE_PARTITION_COUNT");
    EXPECT_STREQ(clErrorName(-69), "CL_INVALID_PIPE_SIZE");
    EXPECT_STREQ(clErrorName(-70), "CL_INVALID_DEVICE_QUEUE");
    EXPECT_STREQ(clErrorName(-71), "CL_INVALID_SPEC_ID");
    EXPECT_STREQ(clErrorName(-72), "CL_MAX_SIZE_RESTRICTION_EXCEEDED");
}

TEST(ClErrorName, ExtensionCodesAndNvidias) {
    EXPECT_STREQ(clErrorName(-1000), "CL_INVALID_GL_SHAREGROUP_REFERENCE_KHR");
    EXPECT_STREQ(clErrorName(-1001), "CL_PLATFORM_NOT_FOUND_KHR");
    EXPECT_STREQ(clErrorName(-1057), "CL_DEVICE_PARTITION_FAILED_EXT");
    EXPECT_STREQ(clErrorName(-1093), "CL_INVALID_EGL_OBJECT_KHR");
    EXPECT_STREQ(clErrorName(-1121), "CL_CONTEXT_TERMINATED_KHR");
    EXPECT_STREQ(clErrorName(-1138), "CL_INVALID_COMMAND_BUFFER_KHR");
    EXPECT_STREQ(clErrorName(-1142), "CL_INVALID_SEMAPHORE_KHR");
    EXPECT_STREQ(clErrorName(-9999), "NVIDIA_ILLEGAL_MEMORY_ACCESS");
    for (int code : {1, -20, -29, -73, -999, -1200, -10000})
        EXPECT_STREQ(clErrorName(code), "unknown OpenCL error") << code;
}

TEST(ClError, KeepsCodeAndCallAndSaysBoth) {
    const ClError e("cannot upload the bodies to the device", "clEnqueueWriteBuffer", -5);
    EXPECT_EQ(e.code(), -5);
    EXPECT_EQ(e.call(), "clEnqueueWriteBuffer");
    EXPECT_STREQ(e.what(),
                 "cannot upload the bodies to the device: CL_OUT_OF_RESOURCES (-5) in "
                 "clEnqueueWriteBuffer");
    // The call is not repeated when the text already names it, nor added when unknown.
    EXPECT_EQ(ClError::describe("clGetPlatformIDs", "clGetPlatformIDs", -1001),
              "clGetPlatformIDs: CL_PLATFORM_NOT_FOUND_KHR (-1001)");
    EXPECT_EQ(ClError::describe("x", "", -4), "x: CL_MEM_OBJECT_ALLOCATION_FAILURE (-4)");
    const Error& asError = e;  // the app catches clviz::Error only
    EXPECT_NE(std::string(asError.what()).find("CL_OUT_OF_RESOURCES"), std::string::npos);
}

TEST(ClBoundary, ConvertsTheBindingsExceptionAndPassesResultsThrough) {
    EXPECT_EQ(clBoundary("adding", [] { return 2 + 3; }), 5);
    try {
        clBoundary("allocating the particles",
                   []() -> int { throw cl::Error(CL_INVALID_BUFFER_SIZE, "clCreateBuffer"); });
        FAIL() << "no exception";
    } catch (const ClError& e) {
        EXPECT_EQ(e.code(), CL_INVALID_BUFFER_SIZE);
        EXPECT_EQ(e.call(), "clCreateBuffer");
        EXPECT_STREQ(e.what(),
                     "allocating the particles: CL_INVALID_BUFFER_SIZE (-61) in clCreateBuffer");
    }
    // Other errors pass unchanged.
    EXPECT_THROW(clBoundary("x", []() -> int { throw Error("plain"); }), Error);
}

TEST(ClBoundary, BuildsACallableMessageOnlyOnFailure) {
    int built = 0;
    auto what = [&] {
        ++built;
        return "N-body step failed (" + std::to_string(7) + " bodies)";
    };
    EXPECT_EQ(clBoundary(what, [] { return 4; }), 4);
    EXPECT_EQ(built, 0);  // a step that succeeds builds no message
    try {
        clBoundary(what, [] { throw cl::Error(CL_OUT_OF_RESOURCES, "clEnqueueNDRangeKernel"); });
        FAIL() << "no exception";
    } catch (const ClError& e) {
        EXPECT_EQ(built, 1);
        EXPECT_EQ(e.code(), CL_OUT_OF_RESOURCES);
        EXPECT_STREQ(e.what(),
                     "N-body step failed (7 bodies): CL_OUT_OF_RESOURCES (-5) in "
                     "clEnqueueNDRangeKernel");
    }
}
