// LD_PRELOAD shim for bench/startup/pocl-frame-gaps.sh: times every glfwSwapBuffers of the
// process and at exit prints, on stderr, the number of swaps, when the first came and the longest
// gap between two swaps after it (ms): the longest the window went without a new frame. With
// SWAP_GAPS_FROM=N only the gaps after swap N count (a change made at a later frame, not the start).
// Build: cc -shared -fPIC -O2 -o swap_gaps.so swap_gaps.c -ldl
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double start = -1, last = -1, first = -1, longest = 0;
static long swaps = 0, from = 0;

static double nowMs(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

__attribute__((constructor)) static void begin(void) {
    start = nowMs();
    const char* n = getenv("SWAP_GAPS_FROM");
    if (n) from = atol(n);
}

__attribute__((destructor)) static void report(void) {
    if (swaps == 0) return;  // the shell and xvfb-run's helpers inherit the shim too
    fprintf(stderr, "swap-gaps: %ld swaps, first at %.0f ms, longest gap after %s %.0f ms, total %.0f ms\n",
            swaps, first, from > 0 ? "the counted swaps" : "it", longest, nowMs() - start);
}

void glfwSwapBuffers(void* window) {
    static void (*real)(void*) = 0;
    if (!real) real = (void (*)(void*))dlsym(RTLD_NEXT, "glfwSwapBuffers");
    real(window);
    const double t = nowMs();
    if (first < 0)
        first = t - start;
    else if (swaps >= from && t - last > longest)
        longest = t - last;
    last = t;
    ++swaps;
}
