# Embeds source files (OpenCL kernels, GLSL shaders) into the binary so clviz and clviz-bench run
# from any directory and can be carried to another machine as a single file. Call from the
# directory whose target compiles the generated file: custom-command outputs are visible there only.
# Files are named by their path under `base` ("common/real.clh").
function(clviz_embed_files out_var name function header base)
    set(out ${PROJECT_BINARY_DIR}/generated/${name}_embedded.cpp)
    add_custom_command(
        OUTPUT ${out}
        COMMAND ${CMAKE_COMMAND} -DOUT=${out} "-DFILES=${ARGN}" -DFUNCTION=${function}
                -DHEADER=${header} -DBASE=${base} -P ${PROJECT_SOURCE_DIR}/cmake/WriteEmbeddedKernels.cmake
        DEPENDS ${ARGN} ${PROJECT_SOURCE_DIR}/cmake/WriteEmbeddedKernels.cmake
        COMMENT "Embedding ${name}"
        VERBATIM)
    set(${out_var} ${out} PARENT_SCOPE)
endfunction()

function(clviz_embed_kernels out_var)
    # Programs (*.cl) and the headers they include (*.clh, in subfolders such as kernels/common/).
    file(GLOB_RECURSE files CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/kernels/*.cl
         ${PROJECT_SOURCE_DIR}/kernels/*.clh)
    clviz_embed_files(out kernels embeddedKernels compute/core/kernel_source.hpp
                      ${PROJECT_SOURCE_DIR}/kernels ${files})
    set(${out_var} ${out} PARENT_SCOPE)
endfunction()

function(clviz_embed_shaders out_var)
    file(GLOB files CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/shaders/*.vert
         ${PROJECT_SOURCE_DIR}/shaders/*.frag ${PROJECT_SOURCE_DIR}/shaders/*.glsl)
    clviz_embed_files(out shaders embeddedShaders render/gl/shader_source.hpp
                      ${PROJECT_SOURCE_DIR}/shaders ${files})
    set(${out_var} ${out} PARENT_SCOPE)
endfunction()
