#pragma once
// The GLFW window and its OpenGL context: GL 4.5 core, falling back to 3.3 core where 4.5 is
// missing. One per process (it owns glfwInit / glfwTerminate).
#include <string>

#include "compute/interop/gl_device_query.hpp"

struct GLFWwindow;

namespace clviz {

struct WindowOptions {
    int width = 1280;  // screen units; scaled by the monitor's content scale (HiDPI)
    int height = 720;
    bool vsync = true;
    bool fullscreen = false;
    std::string title = "clviz";
};

class Window {
  public:
    // Throws clviz::Error: no display, no usable GL context, GL loader failure.
    explicit Window(const WindowOptions& options);
    ~Window();
    Window(const Window&) = delete;
    Window& operator=(const Window&) = delete;

    GLFWwindow* handle() const { return window_; }

    int glMajor() const { return glMajor_; }
    int glMinor() const { return glMinor_; }
    // "OpenGL 4.5 core (llvmpipe ...)", plus the reason when it fell back to 3.3.
    const std::string& glDescription() const { return glDescription_; }
    const std::string& glRenderer() const { return glRenderer_; }
    bool fellBackTo33() const { return fellBack_; }
    // "#version 450 core" or "#version 330 core", for ImGui's OpenGL3 backend.
    const char* glslVersion() const;

    bool vsync() const { return vsync_; }
    void setVsync(bool on);
    bool fullscreen() const { return fullscreen_; }
    void setFullscreen(bool on);

    bool shouldClose() const;
    void requestClose();

    // Framebuffer size in pixels (0x0 while minimized).
    void framebufferSize(int& width, int& height) const;
    // The window's HiDPI scale (1 on a standard display).
    float contentScale() const;

    // GLX context and X11 display, for clGetGLContextInfoKHR and CL-GL context sharing.
    GlContextHandles nativeHandles() const;

  private:
    GLFWwindow* window_ = nullptr;
    int glMajor_ = 0, glMinor_ = 0;
    bool fellBack_ = false;
    bool vsync_ = true;
    bool fullscreen_ = false;
    int windowedX_ = 0, windowedY_ = 0, windowedW_ = 0, windowedH_ = 0;
    std::string glDescription_;
    std::string glRenderer_;
};

// Native handle fetching lives in its own file (window_native.cpp) because GLFW's native header
// pulls in <GL/glx.h>, which must not meet glad's <glad/gl.h> in one translation unit.
GlContextHandles nativeGlHandles(GLFWwindow* window);

}  // namespace clviz
