# Sourced by run-h200.sh and run-viewer-trace.sh on the lent GPU machine: start_x unpacks the
# carried X stack ($GL_DIR, default .gl: pack-carry.sh's archives) into /opt, starts Debian's
# Xvfb on :7 and points GLX at NVIDIA's vendor library. Expects $bin (the folder holding the
# carried clviz, checked with ldd) and $out (where xvfb.txt goes).
# Debian Xvfb, glvnd and Vulkan loaders, GLFW from .gl/ in a private prefix; GLX reaches the GPU
# through NVIDIA's vendor library.
start_x() {
    local gl=${GL_DIR:-.gl}
    x=/opt/x
    mkdir -p $x /opt/x2 && tar xJf "$gl/extra.tar.xz" -C /opt/x2
    # xroot.tar.xz, and the parts pack-viewer-carry.sh packs apart (xroot-libLLVM-15.tar.xz, ...).
    for a in "$gl"/xroot*.tar.xz; do tar xJf "$a" -C $x; done
    # Base libraries (freetype, png, ...) only where the host lacks that soname.
    for f in /opt/x2/usr/lib/x86_64-linux-gnu/*.so.* /opt/x2/lib/x86_64-linux-gnu/*.so.*; do
        ldconfig -p | grep -q "^\s*$(basename "$f") " && rm -f "$f"
    done
    # Mesa's swrast_dri.so (which Xvfb's GLX loads) needs libxml2 through LLVM; Debian's needs
    # ICU 72. A host libxml2.so.2 (Ubuntu 24.04's, with its own ICU) serves instead, and spares
    # the carry ICU's 8 MB (the 64 MiB limit).
    ldconfig -p | grep -q "^\s*libxml2.so.2 " && rm -f $x/usr/lib/x86_64-linux-gnu/libxml2.so.2*
    # ICU 72 for Debian's libxml2 (Mesa's swrast_dri.so, which Xvfb's GLX loads, needs it) on
    # hosts that have no libxml2 of their own (pack-carry.sh makes icu72.tar.xz).
    [ -f "$gl/icu72.tar.xz" ] && mkdir -p /opt/libs && tar xJf "$gl/icu72.tar.xz" -C /opt/libs
    export LD_LIBRARY_PATH=$x/usr/lib/x86_64-linux-gnu:$x/lib/x86_64-linux-gnu:/opt/x2/usr/lib/x86_64-linux-gnu:/opt/x2/lib/x86_64-linux-gnu:/opt/libs/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
    # clviz links Open MPI (its --mpi mode). Where the host has none: Debian's runtime from
    # .carry-mpi (bench/device/pack-mpi-carry.sh), or only the libraries the viewer links
    # (.gl/mpi-runtime.tar.xz, 1 MB; the viewer never starts MPI without --mpi).
    if ldd $bin/clviz | grep -q "libmpi.*not found" && [ -d .carry-mpi ]; then
        for deb in .carry-mpi/*.deb; do dpkg -x "$deb" /opt/mpiroot; done
        cp -rn /opt/mpiroot/. / && ldconfig
    elif [ -f "$gl/mpi-runtime.tar.xz" ]; then
        mkdir -p /opt/libs/lib && tar xJf "$gl/mpi-runtime.tar.xz" -C /opt/libs/lib
    fi
    for f in $x/usr/bin/Xvfb $x/usr/lib/x86_64-linux-gnu/dri/swrast_dri.so $bin/clviz; do
        ldd "$f" | grep "not found" | sed "s|^|missing for $(basename "$f"): |"
    done
    export LIBGL_DRIVERS_PATH=$x/usr/lib/x86_64-linux-gnu/dri
    ln -sf $x/usr/bin/xkbcomp /usr/bin/xkbcomp 2>/dev/null
    $x/usr/bin/Xvfb :7 -screen 0 1280x800x24 -xkbdir $x/usr/share/X11/xkb >"$out/xvfb.txt" 2>&1 &
    sleep 3
    export DISPLAY=:7 __GLX_VENDOR_LIBRARY_NAME=nvidia
    # NVIDIA's Vulkan ICD for the loader carried in xroot (external-memory path).
    for icd in /usr/share/vulkan/icd.d/nvidia_icd.json /etc/vulkan/icd.d/nvidia_icd.json \
        /usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json; do
        [ -f "$icd" ] && export VK_DRIVER_FILES=$icd && break
    done
}
