# Configure-time checks for every Debian package the build takes headers, libraries or tools
# from. A missing one stops the configure step with one line per package that names it, instead
# of a compiler error deep inside the build (a fresh machine once lacked libxrandr-dev, which
# <GLFW/glfw3native.h> includes and libglfw3-dev only recommends). scripts/setup.sh installs
# the same list.

set(clviz_missing_packages "")

# clviz_need(header|program|library NAME PACKAGE): NAME must be found, else PACKAGE is missing.
function(clviz_need kind name package)
    string(MAKE_C_IDENTIFIER "CLVIZ_FOUND_${kind}_${name}" var)
    if(kind STREQUAL "header")
        find_path(${var} ${name})
    elseif(kind STREQUAL "program")
        find_program(${var} ${name})
    elseif(kind STREQUAL "library")
        find_library(${var} ${name})
    elseif(kind STREQUAL "file")
        if(EXISTS ${name})
            set(${var} ${name} CACHE INTERNAL "")
        endif()
    endif()
    if(NOT ${var})
        unset(${var} CACHE)  # look again on the next configure, once the package is installed
        message(NOTICE "clviz: missing ${kind} ${name}: install the Debian package ${package}")
        set(clviz_missing_packages ${clviz_missing_packages} ${package} PARENT_SCOPE)
    endif()
endfunction()

clviz_need(program pkg-config pkg-config)
clviz_need(header CL/cl.h opencl-headers)
clviz_need(header CL/opencl.hpp opencl-clhpp-headers)
clviz_need(library OpenCL ocl-icd-opencl-dev)
clviz_need(header stb/stb_image.h libstb-dev)
# the spectral lab's eigenproblem: LAPACKE, with OpenBLAS providing LAPACK and BLAS
clviz_need(header lapacke.h liblapacke-dev)
clviz_need(library lapacke liblapacke-dev)
clviz_need(library openblas libopenblas-dev)
# the linear-algebra lab's library row (compute/linalg/clblast_row.cpp)
clviz_need(header clblast.h libclblast-dev)
clviz_need(library clblast libclblast-dev)
clviz_need(header nlohmann/json.hpp nlohmann-json3-dev)
# the command lines of clviz and clviz-bench as flag tables (common/flag_table.cpp)
clviz_need(header CLI/CLI.hpp libcli11-dev)
# the N-body run across MPI ranks: headers, libraries and compiler wrappers; mpirun
clviz_need(program mpicc libopenmpi-dev)
clviz_need(program mpirun openmpi-bin)

if(CLVIZ_BUILD_APP)
    clviz_need(header GLFW/glfw3.h libglfw3-dev)
    # <GLFW/glfw3native.h> with GLFW_EXPOSE_NATIVE_X11 / _GLX (app/window_native.cpp):
    clviz_need(header X11/Xlib.h libx11-dev)
    clviz_need(header X11/extensions/Xrandr.h libxrandr-dev)
    clviz_need(header GL/glx.h libgl-dev)
    clviz_need(header GL/gl.h libgl-dev)
    # the external-memory interop path (compute/interop/); the loader is opened at run time
    clviz_need(header vulkan/vulkan.h libvulkan-dev)
    clviz_need(program glad python3-glad)
    clviz_need(header imgui/imgui.h libimgui-dev)
    clviz_need(file /usr/share/doc/libimgui-dev/examples/backends/imgui_impl_glfw.cpp libimgui-dev)
endif()

if(CLVIZ_BUILD_TESTS)
    clviz_need(header gtest/gtest.h libgtest-dev)
    if(CLVIZ_BUILD_APP)
        # The GL tests and end-to-end runs need a virtual X server with a software GL.
        clviz_need(program xvfb-run xvfb)
        clviz_need(program xauth xauth)
        clviz_need(program xwininfo x11-utils)  # e2e: reads the window title back
        clviz_need(file /usr/lib/${CMAKE_LIBRARY_ARCHITECTURE}/dri/swrast_dri.so libgl1-mesa-dri)
    endif()
    # The tests run every kernel on PoCL's CPU device.
    clviz_need(file /etc/OpenCL/vendors/pocl.icd pocl-opencl-icd)
endif()

if(clviz_missing_packages)
    list(REMOVE_DUPLICATES clviz_missing_packages)
    list(JOIN clviz_missing_packages " " clviz_missing_list)
    message(FATAL_ERROR "missing Debian packages: ${clviz_missing_list} "
                        "(scripts/setup.sh installs every dependency)")
endif()
