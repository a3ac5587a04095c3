#pragma once
// A hidden GLFW window with a current GL context, for gtests that need GL (run under Xvfb, see
// tests/CMakeLists.txt: files named *_gl_test.cpp). Tries 4.5 core, then 3.3 core.
#include <glad/gl.h>
// glad first: GLFW must not pull in the system GL header.
#include <GLFW/glfw3.h>

#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "compute/core/compute_context.hpp"

namespace clviz::test {

class HiddenGlContext {
  public:
    explicit HiddenGlContext(int width = 256, int height = 256) {
        if (!glfwInit()) {
            error_ = "glfwInit failed (no display? run under xvfb-run)";
            return;
        }
        for (auto [major, minor] : {std::pair{4, 5}, std::pair{3, 3}}) {
            glfwDefaultWindowHints();
            glfwWindowHint(GLFW_VISIBLE, GLFW_FALSE);
            glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, major);
            glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, minor);
            glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
            glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);
            window_ = glfwCreateWindow(width, height, "clviz test", nullptr, nullptr);
            if (window_) break;
        }
        if (!window_) {
            error_ = "cannot create a GL 3.3+ core context";
            return;
        }
        glfwMakeContextCurrent(window_);
        if (gladLoadGL(glfwGetProcAddress) == 0) error_ = "gladLoadGL failed";
    }
    ~HiddenGlContext() {
        if (window_) glfwDestroyWindow(window_);
        glfwTerminate();
    }
    HiddenGlContext(const HiddenGlContext&) = delete;
    HiddenGlContext& operator=(const HiddenGlContext&) = delete;

    bool ok() const { return error_.empty(); }
    const std::string& error() const { return error_; }
    GLFWwindow* window() const { return window_; }

  private:
    GLFWwindow* window_ = nullptr;
    std::string error_;
};

// A test suite sharing one hidden GL context (Width x Height) and one OpenCL context (on the
// default device).
template <int Width = 256, int Height = 256>
class GlComputeSuite : public ::testing::Test {
  protected:
    static void SetUpTestSuite() {
        gl_ = new HiddenGlContext(Width, Height);
        if (gl_->ok()) cc_ = ComputeContext::create({}).release();
    }
    static void TearDownTestSuite() {
        delete cc_;
        delete gl_;
        cc_ = nullptr;
        gl_ = nullptr;
    }
    void SetUp() override { ASSERT_TRUE(gl_->ok()) << gl_->error(); }

    static inline HiddenGlContext* gl_ = nullptr;
    static inline ComputeContext* cc_ = nullptr;
};
using GlComputeTest = GlComputeSuite<>;

// `n` bytes of a fixed pseudo-random sequence: test data no copy could get right by accident.
inline std::vector<std::uint8_t> randomBytes(std::size_t n, unsigned seed) {
    std::mt19937 rng(seed);
    std::vector<std::uint8_t> v(n);
    for (auto& b : v)
        b = std::uint8_t(rng());
    return v;
}

// Reads `bytes` at `offset` of a GL buffer straight (glGetBufferSubData): right for memory only GL
// writes (host copy, and the gl-sharing emulation); for external memory see readGlBufferOnGpu.
inline std::vector<std::uint8_t> readGlBuffer(GLuint buffer, GLintptr offset, std::size_t bytes) {
    std::vector<std::uint8_t> out(bytes);
    glBindBuffer(GL_COPY_READ_BUFFER, buffer);
    glGetBufferSubData(GL_COPY_READ_BUFFER, offset, GLsizeiptr(bytes), out.data());
    glBindBuffer(GL_COPY_READ_BUFFER, 0);
    return out;
}

// Reads `bytes` at `offset` of a GL buffer the way drawing sees them: a GPU-side copy into a fresh
// GL buffer, then glGetBufferSubData of that copy. (Reading an external-memory buffer straight
// with glGetBufferSubData can return bytes GL cached before another API wrote the memory:
// without an exported-semaphore wait GL cannot know the memory changed; see
// compute/interop/external_memory_bridge.cpp.)
inline std::vector<std::uint8_t> readGlBufferOnGpu(GLuint buffer, GLintptr offset,
                                                   std::size_t bytes) {
    GLuint copy = 0;
    glGenBuffers(1, &copy);
    glBindBuffer(GL_COPY_WRITE_BUFFER, copy);
    glBufferData(GL_COPY_WRITE_BUFFER, GLsizeiptr(bytes), nullptr, GL_STREAM_READ);
    glBindBuffer(GL_COPY_READ_BUFFER, buffer);
    glCopyBufferSubData(GL_COPY_READ_BUFFER, GL_COPY_WRITE_BUFFER, offset, 0, GLsizeiptr(bytes));
    std::vector<std::uint8_t> out(bytes);
    glGetBufferSubData(GL_COPY_WRITE_BUFFER, 0, GLsizeiptr(bytes), out.data());
    glBindBuffer(GL_COPY_READ_BUFFER, 0);
    glBindBuffer(GL_COPY_WRITE_BUFFER, 0);
    glDeleteBuffers(1, &copy);
    return out;
}

}  // namespace clviz::test
