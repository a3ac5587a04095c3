# Embeds every kernels/*.cl file into the binary so clviz and clviz-bench run from any directory
# (and can be carried to another machine as a single file). Call from the directory whose target
# compiles the generated file: custom-command outputs are visible in that directory only.
function(clviz_embed_kernels out_var)
    file(GLOB kernel_files CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/kernels/*.cl)
    set(out ${PROJECT_BINARY_DIR}/generated/kernels_embedded.cpp)
    add_custom_command(
        OUTPUT ${out}
        COMMAND ${CMAKE_COMMAND} -DOUT=${out} "-DFILES=${kernel_files}"
                -P ${PROJECT_SOURCE_DIR}/cmake/WriteEmbeddedKernels.cmake
        DEPENDS ${kernel_files} ${PROJECT_SOURCE_DIR}/cmake/WriteEmbeddedKernels.cmake
        COMMENT "Embedding OpenCL kernels"
        VERBATIM)
    set(${out_var} ${out} PARENT_SCOPE)
endfunction()
