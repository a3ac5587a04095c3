# GLFW, the glad GL loader (generated at configure time, offline), and Dear ImGui with its
# GLFW + OpenGL3 backends compiled from the Debian package's examples folder.
find_package(PkgConfig REQUIRED)
find_package(OpenGL REQUIRED)
pkg_check_modules(GLFW REQUIRED IMPORTED_TARGET glfw3>=3.3)
pkg_check_modules(IMGUI REQUIRED IMPORTED_TARGET imgui)
pkg_check_modules(STB REQUIRED IMPORTED_TARGET stb)

find_program(GLAD_EXECUTABLE glad REQUIRED)
set(CLVIZ_GLAD_DIR ${PROJECT_BINARY_DIR}/glad)
set(CLVIZ_GLAD_EXTENSIONS
    GL_ARB_buffer_storage,GL_ARB_cl_event,GL_EXT_memory_object,GL_EXT_memory_object_fd,GL_EXT_semaphore,GL_EXT_semaphore_fd,GL_KHR_debug)
if(NOT EXISTS ${CLVIZ_GLAD_DIR}/src/gl.c)
    message(STATUS "Generating GL 4.5 core loader with glad (offline)")
    execute_process(
        COMMAND ${GLAD_EXECUTABLE} --quiet --reproducible --api gl:core=4.5
                --extensions ${CLVIZ_GLAD_EXTENSIONS} --out-path ${CLVIZ_GLAD_DIR} c
        RESULT_VARIABLE glad_result OUTPUT_QUIET ERROR_VARIABLE glad_error)
    if(NOT glad_result EQUAL 0)
        message(FATAL_ERROR "glad failed (${glad_result}): ${glad_error}")
    endif()
endif()
add_library(clviz_glad STATIC ${CLVIZ_GLAD_DIR}/src/gl.c)
target_include_directories(clviz_glad SYSTEM PUBLIC ${CLVIZ_GLAD_DIR}/include)
target_link_libraries(clviz_glad PUBLIC ${CMAKE_DL_LIBS})

set(CLVIZ_IMGUI_BACKENDS /usr/share/doc/libimgui-dev/examples/backends)
add_library(clviz_imgui STATIC
    ${CLVIZ_IMGUI_BACKENDS}/imgui_impl_glfw.cpp
    ${CLVIZ_IMGUI_BACKENDS}/imgui_impl_opengl3.cpp)
target_include_directories(clviz_imgui SYSTEM PUBLIC ${IMGUI_INCLUDE_DIRS} ${IMGUI_INCLUDEDIR}/backends)
target_link_libraries(clviz_imgui PUBLIC PkgConfig::IMGUI PkgConfig::GLFW ${CMAKE_DL_LIBS})
target_compile_options(clviz_imgui PRIVATE -w)
if(CLVIZ_SANITIZE)
    # bookworm's imgui_impl_opengl3_loader.h fills a 54-entry union through its 53-entry `ptr`
    # member: in bounds of the union, but UBSan's bounds check aborts on it at start-up.
    target_compile_options(clviz_imgui PRIVATE -fno-sanitize=bounds)
endif()
