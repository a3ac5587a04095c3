#pragma once
// Small RAII owners for OpenGL objects, and shader compilation whose failures throw clviz::Error
// with the driver's info log. Shared by the particle renderer and the image lab.
#include <glad/gl.h>

#include <string>
#include <utility>

namespace clviz {

// Owns one GL name; `Deleter` frees it. Movable, not copyable. The GL context must be current
// when it is destroyed (demos release everything in shutdown()).
template <void (*Deleter)(GLuint)>
class GlName {
  public:
    GlName() = default;
    explicit GlName(GLuint id) : id_(id) {}
    ~GlName() { reset(); }
    GlName(GlName&& other) noexcept : id_(std::exchange(other.id_, 0)) {}
    GlName& operator=(GlName&& other) noexcept {
        if (this != &other) {
            reset();
            id_ = std::exchange(other.id_, 0);
        }
        return *this;
    }
    GlName(const GlName&) = delete;
    GlName& operator=(const GlName&) = delete;

    GLuint id() const { return id_; }
    explicit operator bool() const { return id_ != 0; }
    void reset() {
        if (id_ != 0) Deleter(id_);
        id_ = 0;
    }

  private:
    GLuint id_ = 0;
};

namespace detail {
void deleteGlBuffer(GLuint id);
void deleteGlVertexArray(GLuint id);
void deleteGlTexture(GLuint id);
void deleteGlProgram(GLuint id);
void deleteGlShader(GLuint id);
void deleteGlQuery(GLuint id);
void deleteGlFramebuffer(GLuint id);
}  // namespace detail

using GlBuffer = GlName<detail::deleteGlBuffer>;
using GlVertexArray = GlName<detail::deleteGlVertexArray>;
using GlTexture = GlName<detail::deleteGlTexture>;
using GlProgram = GlName<detail::deleteGlProgram>;
using GlShader = GlName<detail::deleteGlShader>;
using GlQuery = GlName<detail::deleteGlQuery>;
using GlFramebuffer = GlName<detail::deleteGlFramebuffer>;

GlBuffer makeGlBuffer();
GlVertexArray makeGlVertexArray();
GlTexture makeGlTexture();
GlQuery makeGlQuery();
GlFramebuffer makeGlFramebuffer();

// Compiles one stage; `name` (e.g. "particles.vert") labels the error. Throws clviz::Error with
// the info log on failure.
GlShader compileGlShader(GLenum stage, const std::string& source, const std::string& name);

// Links a program from shaders/<vertexName> and shaders/<fragmentName> (via shaderSource()).
// Throws clviz::Error with the compile or link log.
GlProgram buildGlProgram(const std::string& vertexName, const std::string& fragmentName);

// Same, from source text (tests, generated shaders).
GlProgram linkGlProgram(const std::string& vertexSource, const std::string& vertexName,
                        const std::string& fragmentSource, const std::string& fragmentName);

// Uniform location, or -1 (unused uniforms are optimized away; setting -1 is a GL no-op).
GLint uniformLocation(const GlProgram& program, const char* name);

// Is a GL extension present (glad's flags cover the ones we generated; this works for any)?
bool hasGlExtension(const char* name);

// "GL_INVALID_OPERATION" etc.; drains the error queue and returns the first error, or empty.
std::string takeGlError();

}  // namespace clviz
