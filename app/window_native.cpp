// GLFW's native access, kept apart from glad: <GLFW/glfw3native.h> includes <GL/glx.h>. The
// project header comes first: X11 defines macros (None, Status) that break opencl.hpp.
#include "app/window.hpp"

#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>
#define GLFW_EXPOSE_NATIVE_X11
#define GLFW_EXPOSE_NATIVE_GLX
#include <GLFW/glfw3native.h>

namespace clviz {

GlContextHandles nativeGlHandles(GLFWwindow* window) {
    GlContextHandles h;
    h.api = GlContextHandles::Api::Glx;
    h.context = reinterpret_cast<void*>(glfwGetGLXContext(window));
    h.display = reinterpret_cast<void*>(glfwGetX11Display());
    return h;
}

}  // namespace clviz
