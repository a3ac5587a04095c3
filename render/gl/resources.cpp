#include "render/gl/resources.hpp"

#include <cstring>

#include "common/error.hpp"
#include "render/gl/shader_source.hpp"

namespace clviz {

namespace detail {
void deleteGlBuffer(GLuint id) {
    glDeleteBuffers(1, &id);
}
void deleteGlVertexArray(GLuint id) {
    glDeleteVertexArrays(1, &id);
}
void deleteGlTexture(GLuint id) {
    glDeleteTextures(1, &id);
}
void deleteGlProgram(GLuint id) {
    glDeleteProgram(id);
}
void deleteGlShader(GLuint id) {
    glDeleteShader(id);
}
void deleteGlQuery(GLuint id) {
    glDeleteQueries(1, &id);
}
void deleteGlFramebuffer(GLuint id) {
    glDeleteFramebuffers(1, &id);
}
}  // namespace detail

GlBuffer makeGlBuffer() {
    GLuint id = 0;
    glGenBuffers(1, &id);
    if (id == 0) throw Error("glGenBuffers failed");
    return GlBuffer(id);
}

GlVertexArray makeGlVertexArray() {
    GLuint id = 0;
    glGenVertexArrays(1, &id);
    if (id == 0) throw Error("glGenVertexArrays failed");
    return GlVertexArray(id);
}

GlTexture makeGlTexture() {
    GLuint id = 0;
    glGenTextures(1, &id);
    if (id == 0) throw Error("glGenTextures failed");
    return GlTexture(id);
}

GlQuery makeGlQuery() {
    GLuint id = 0;
    glGenQueries(1, &id);
    if (id == 0) throw Error("glGenQueries failed");
    return GlQuery(id);
}

GlFramebuffer makeGlFramebuffer() {
    GLuint id = 0;
    glGenFramebuffers(1, &id);
    if (id == 0) throw Error("glGenFramebuffers failed");
    return GlFramebuffer(id);
}

namespace {

const char* stageName(GLenum stage) {
    switch (stage) {
        case GL_VERTEX_SHADER:
            return "vertex";
        case GL_FRAGMENT_SHADER:
            return "fragment";
        case GL_GEOMETRY_SHADER:
            return "geometry";
        case GL_COMPUTE_SHADER:
            return "compute";
        default:
            return "shader";
    }
}

}  // namespace

GlShader compileGlShader(GLenum stage, const std::string& source, const std::string& name) {
    GlShader shader(glCreateShader(stage));
    if (!shader) throw Error(std::string("glCreateShader(") + stageName(stage) + ") failed");
    const char* text = source.c_str();
    glShaderSource(shader.id(), 1, &text, nullptr);
    glCompileShader(shader.id());
    GLint ok = GL_FALSE;
    glGetShaderiv(shader.id(), GL_COMPILE_STATUS, &ok);
    if (ok != GL_TRUE) {
        GLint length = 0;
        glGetShaderiv(shader.id(), GL_INFO_LOG_LENGTH, &length);
        std::string log(length > 0 ? length : 0, '\0');
        if (length > 0) glGetShaderInfoLog(shader.id(), length, nullptr, log.data());
        while (!log.empty() && (log.back() == '\0' || log.back() == '\n'))
            log.pop_back();
        throw Error("cannot compile " + std::string(stageName(stage)) + " shader " + name + ":\n" +
                    log);
    }
    return shader;
}

GlProgram linkGlProgram(const std::string& vertexSource, const std::string& vertexName,
                        const std::string& fragmentSource, const std::string& fragmentName) {
    GlShader vs = compileGlShader(GL_VERTEX_SHADER, vertexSource, vertexName);
    GlShader fs = compileGlShader(GL_FRAGMENT_SHADER, fragmentSource, fragmentName);
    GlProgram program(glCreateProgram());
    if (!program) throw Error("glCreateProgram failed");
    glAttachShader(program.id(), vs.id());
    glAttachShader(program.id(), fs.id());
    glLinkProgram(program.id());
    glDetachShader(program.id(), vs.id());
    glDetachShader(program.id(), fs.id());
    GLint ok = GL_FALSE;
    glGetProgramiv(program.id(), GL_LINK_STATUS, &ok);
    if (ok != GL_TRUE) {
        GLint length = 0;
        glGetProgramiv(program.id(), GL_INFO_LOG_LENGTH, &length);
        std::string log(length > 0 ? length : 0, '\0');
        if (length > 0) glGetProgramInfoLog(program.id(), length, nullptr, log.data());
        while (!log.empty() && (log.back() == '\0' || log.back() == '\n'))
            log.pop_back();
        throw Error("cannot link program " + vertexName + " + " + fragmentName + ":\n" + log);
    }
    return program;
}

GlProgram buildGlProgram(const std::string& vertexName, const std::string& fragmentName) {
    return linkGlProgram(shaderSource(vertexName), vertexName, shaderSource(fragmentName),
                         fragmentName);
}

GLint uniformLocation(const GlProgram& program, const char* name) {
    return glGetUniformLocation(program.id(), name);
}

bool hasGlExtension(const char* name) {
    GLint count = 0;
    glGetIntegerv(GL_NUM_EXTENSIONS, &count);
    for (GLint i = 0; i < count; ++i) {
        const auto* ext = reinterpret_cast<const char*>(glGetStringi(GL_EXTENSIONS, i));
        if (ext && std::strcmp(ext, name) == 0) return true;
    }
    return false;
}

std::string takeGlError() {
    std::string first;
    for (int guard = 0; guard < 32; ++guard) {
        GLenum e = glGetError();
        if (e == GL_NO_ERROR) break;
        if (!first.empty()) continue;
        switch (e) {
            case GL_INVALID_ENUM:
                first = "GL_INVALID_ENUM";
                break;
            case GL_INVALID_VALUE:
                first = "GL_INVALID_VALUE";
                break;
            case GL_INVALID_OPERATION:
                first = "GL_INVALID_OPERATION";
                break;
            case GL_INVALID_FRAMEBUFFER_OPERATION:
                first = "GL_INVALID_FRAMEBUFFER_OPERATION";
                break;
            case GL_OUT_OF_MEMORY:
                first = "GL_OUT_OF_MEMORY";
                break;
            default:
                first = "GL error " + std::to_string(e);
                break;
        }
    }
    return first;
}

}  // namespace clviz
