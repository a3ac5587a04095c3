#include "app/window.hpp"

#include <glad/gl.h>
#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>

#include <cstdio>
#include <cstdlib>

#include "common/error.hpp"

namespace clviz {

namespace {

std::string lastGlfwError;

void onGlfwError(int code, const char* description) {
    lastGlfwError = std::string(description ? description : "unknown") + " (GLFW error 0x";
    char hex[16];
    std::snprintf(hex, sizeof hex, "%X)", static_cast<unsigned>(code));
    lastGlfwError += hex;
}

std::string takeGlfwError() {
    std::string e = lastGlfwError.empty() ? "no details from GLFW" : lastGlfwError;
    lastGlfwError.clear();
    return e;
}

GLFWwindow* tryCreate(const WindowOptions& o, int major, int minor) {
    glfwDefaultWindowHints();
    glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, major);
    glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, minor);
    glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
    glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);
    glfwWindowHint(GLFW_RESIZABLE, GLFW_TRUE);
    glfwWindowHint(GLFW_SCALE_TO_MONITOR, GLFW_TRUE);  // HiDPI: size in screen units
    return glfwCreateWindow(o.width, o.height, o.title.c_str(), nullptr, nullptr);
}

}  // namespace

Window::Window(const WindowOptions& options) {
    glfwSetErrorCallback(onGlfwError);
    if (!glfwInit()) {
        const char* display = std::getenv("DISPLAY");
        throw Error(std::string("no display: set DISPLAY or run under xvfb-run (") +
                    (display && *display ? "cannot open DISPLAY=" + std::string(display) + ": "
                                         : std::string("DISPLAY is not set: ")) +
                    takeGlfwError() + ")");
    }
    window_ = tryCreate(options, 4, 5);
    std::string why45;
    if (window_ == nullptr) {
        why45 = takeGlfwError();
        window_ = tryCreate(options, 3, 3);
        fellBack_ = true;
    }
    if (window_ == nullptr) {
        const std::string why33 = takeGlfwError();
        glfwTerminate();
        throw Error(
            "cannot create an OpenGL context: clviz needs OpenGL 3.3 core or newer.\n"
            "  OpenGL 4.5 core: " +
            why45 + "\n  OpenGL 3.3 core: " + why33);
    }
    glfwMakeContextCurrent(window_);
    const int version = gladLoadGL(glfwGetProcAddress);
    if (version == 0) {
        glfwDestroyWindow(window_);
        glfwTerminate();
        throw Error("cannot load OpenGL functions (glad) for the new context");
    }
    glMajor_ = GLAD_VERSION_MAJOR(version);
    glMinor_ = GLAD_VERSION_MINOR(version);
    auto str = [](GLenum e) {
        const auto* s = reinterpret_cast<const char*>(glGetString(e));
        return std::string(s ? s : "?");
    };
    glRenderer_ = str(GL_RENDERER);
    glDescription_ = "OpenGL " + std::to_string(glMajor_) + "." + std::to_string(glMinor_) +
                     " core (" + str(GL_VERSION) + ", " + glRenderer_ + ")";
    if (fellBack_) glDescription_ += "; fell back to 3.3: 4.5 core unavailable: " + why45;

    setVsync(options.vsync);
    if (options.fullscreen) setFullscreen(true);
}

Window::~Window() {
    if (window_) glfwDestroyWindow(window_);
    glfwTerminate();
}

const char* Window::glslVersion() const {
    return fellBack_ || glMajor_ < 4 ? "#version 330 core" : "#version 450 core";
}

void Window::setVsync(bool on) {
    vsync_ = on;
    glfwSwapInterval(on ? 1 : 0);
}

void Window::setFullscreen(bool on) {
    if (on == fullscreen_) return;
    if (on) {
        GLFWmonitor* monitor = glfwGetPrimaryMonitor();
        const GLFWvidmode* mode = monitor ? glfwGetVideoMode(monitor) : nullptr;
        if (mode == nullptr) return;  // no monitor to go fullscreen on: stay windowed
        glfwGetWindowPos(window_, &windowedX_, &windowedY_);
        glfwGetWindowSize(window_, &windowedW_, &windowedH_);
        glfwSetWindowMonitor(window_, monitor, 0, 0, mode->width, mode->height, mode->refreshRate);
    } else {
        glfwSetWindowMonitor(window_, nullptr, windowedX_, windowedY_, windowedW_, windowedH_, 0);
    }
    fullscreen_ = on;
    setVsync(vsync_);  // some drivers reset the swap interval on a mode change
}

bool Window::shouldClose() const {
    return glfwWindowShouldClose(window_);
}

void Window::requestClose() {
    glfwSetWindowShouldClose(window_, GLFW_TRUE);
}

void Window::framebufferSize(int& width, int& height) const {
    glfwGetFramebufferSize(window_, &width, &height);
}

float Window::contentScale() const {
    float x = 1, y = 1;
    glfwGetWindowContentScale(window_, &x, &y);
    return x > 0 ? x : 1.0f;
}

GlContextHandles Window::nativeHandles() const {
    return nativeGlHandles(window_);
}

}  // namespace clviz
