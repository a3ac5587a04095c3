# Embeds source files (OpenCL kernels, GLSL shaders) into the binary so clviz and clviz-bench run
# from any directory and can be carried to another machine as a single file. Call from the
# directory whose target compiles the generated file: custom-command outputs are visible there only.
function(clviz_embed_files out_var name function header)
    set(out ${PROJECT_BINARY_DIR}/generated/${name}_embedded.cpp)
    add_custom_command(
        OUTPUT ${out}
        COMMAND ${CMAKE_COMMAND} -DOUT=${out} "-DFILES=${ARGN}" -DFUNCTION=${function}
                -DHEADER=${header} -P ${PROJECT_SOURCE_DIR}/cmake/WriteEmbeddedKernels.cmake
        DEPENDS ${ARGN} ${PROJECT_SOURCE_DIR}/cmake/WriteEmbeddedKernels.cmake
        COMMENT "Embedding ${name}"
        VERBATIM)
    set(${out_var} ${out} PARENT_SCOPE)
endfunction()

function(clviz_embed_kernels out_var)
    # Named by their path under kernels/ ("nbody/tree.cl"), as kernelSource() looks them up.
    file(GLOB files CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/kernels/*.cl
         ${PROJECT_SOURCE_DIR}/kernels/*/*.cl)
    clviz_embed_files(out kernels embeddedKernels compute/core/kernel_source.hpp ${files})
    set(${out_var} ${out} PARENT_SCOPE)
endfunction()

function(clviz_embed_shaders out_var)
    file(GLOB files CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/shaders/*.vert
         ${PROJECT_SOURCE_DIR}/shaders/*.frag ${PROJECT_SOURCE_DIR}/shaders/*.glsl)
    clviz_embed_files(out shaders embeddedShaders render/gl/shader_source.hpp ${files})
    set(${out_var} ${out} PARENT_SCOPE)
endfunction()
